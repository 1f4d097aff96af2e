import { CreateSurveyBody, QuestionType, type Question } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { builderReducer, choicesFor, EMPTY_BUILDER, publishBody, type BuilderAction, type BuilderState } from './builder';
import { expressionProblem, readableExpression, withChoiceLabel, withDefaultLanguage, withLanguage, withoutLanguage, withTranslation } from './logic-fields';

const q = (id: string, text: string, type: QuestionType, more: Partial<Question> = {}): Question => ({ id, text, type, compulsory: true, options: [], ...more });
const form: Question[] = [
  q('adults', 'Adults', QuestionType.number),
  q('kids', 'Children', QuestionType.number),
  q('state', 'State', QuestionType.select, { options: ['Kano', 'Lagos'] }),
];

describe('expressions typed in the builder', () => {
  it('names a syntax error with the engine\'s words, and unknown ${names}', () => {
    expect(expressionProblem('', form)).toBeNull();
    expect(expressionProblem('${adults} + ${kids}', form)).toBeNull();
    expect(expressionProblem('${adults} +', form)).toMatch(/^Not a valid expression: /);
    expect(expressionProblem('${adults} + ${nobody}', form)).toBe('${nobody} is not a question of this form');
    expect(expressionProblem('${a1} + ${a2}', form)).toBe('${a1}, ${a2} are not a question of this form');
    // A bare name is a choice column (state = ${state}); the question itself may be named.
    expect(expressionProblem('state = ${state}', form)).toBeNull();
    expect(expressionProblem('${self} > 0', form, 'self')).toBeNull();
  });

  it('reads ids back as question texts', () => {
    expect(readableExpression('${adults} + ${kids} + ${gone}', form)).toBe('[Adults] + [Children] + ${gone}');
  });
});

describe('a calculation, a choice filter and columns from the question form', () => {
  const add = (state: BuilderState, change: Partial<BuilderState['form']>) => ([{ type: 'form', change }, { type: 'commit' }] as BuilderAction[]).reduce(builderReducer, state);

  it('adds a calculate question and refuses one without a calculation or with a wrong name', () => {
    const start: BuilderState = { ...EMPTY_BUILDER, title: 'T', questions: form };
    expect(add(start, { text: 'Total', type: QuestionType.calculate }).questions).toHaveLength(3);
    expect(add(start, { text: 'Total', type: QuestionType.calculate, calculation: '${adults} + ${x}' }).questions).toHaveLength(3);
    const next = add(start, { text: 'Total', type: QuestionType.calculate, calculation: '${adults} + ${kids}', constraintExpr: '. > 0' });
    // A calculation takes no constraint from the form, and is never compulsory.
    expect(next.questions[3]).toMatchObject({ text: 'Total', type: QuestionType.calculate, calculation: '${adults} + ${kids}', compulsory: false });
    expect(next.questions[3]!.constraintExpr).toBeUndefined();
    expect(publishBody(next).ok).toBe(true);
  });

  it('refuses a calculation that reads itself through another', () => {
    const start: BuilderState = { ...EMPTY_BUILDER, title: 'T', questions: [...form, q('a', 'A', QuestionType.calculate, { calculation: '${b} + 1', compulsory: false }), q('b', 'B', QuestionType.calculate, { calculation: '1', compulsory: false })] };
    const edited = ([{ type: 'edit', index: 4 }, { type: 'form', change: { calculation: '${a} + 1' } }, { type: 'commit' }] as BuilderAction[]).reduce(builderReducer, start);
    expect(edited.questions[4]!.calculation).toBe('1');
  });

  it('builds a cascade: a state column per LGA and a filter on the State answer', () => {
    const start: BuilderState = { ...EMPTY_BUILDER, title: 'T', questions: form };
    const next = add(start, { text: 'LGA', type: QuestionType.select, options: 'Nassarawa, Ikeja, Epe', choiceFilter: 'state = ${state}', choiceColumns: ['state'], choiceValues: { Nassarawa: { state: 'Kano' }, Ikeja: { state: 'Lagos' }, Epe: { state: 'Lagos' } } });
    const lga = next.questions[3]!;
    expect(lga.choiceFilter).toBe('state = ${state}');
    expect(lga.choices).toEqual([{ name: 'Nassarawa', label: 'Nassarawa', columns: { state: 'Kano' } }, { name: 'Ikeja', label: 'Ikeja', columns: { state: 'Lagos' } }, { name: 'Epe', label: 'Epe', columns: { state: 'Lagos' } }]);
    const checked = publishBody(next);
    expect(checked.ok).toBe(true);
    // Loaded back into the form, the columns and values are there to edit.
    const editing = builderReducer(next, { type: 'edit', index: 3 });
    expect(editing.form).toMatchObject({ choiceFilter: 'state = ${state}', choiceColumns: ['state'], choiceValues: { Ikeja: { state: 'Lagos' } } });
  });

  it('keeps choice names and translations by label; a removed column is dropped', () => {
    const existing = [{ name: 'kn', label: 'Kano', labels: { ha: 'Kano (ha)' }, columns: { zone: 'nw' } }];
    expect(choicesFor(['Kano', 'Abuja'], existing, [], {})).toEqual([{ name: 'kn', label: 'Kano', labels: { ha: 'Kano (ha)' } }, { name: 'Abuja', label: 'Abuja' }]);
    expect(choicesFor(['Kano'], undefined, [], {})).toBeUndefined();
  });
});

describe('languages in the builder', () => {
  const qs: Question[] = [q('name', 'Name', QuestionType.text, { hint: 'As on the ID card' }), q('state', 'State', QuestionType.select, { options: ['Kano', 'Lagos'] })];

  it('adds a language after naming the questions\' own, and refuses a second of the same', () => {
    const one = withLanguage({}, { code: 'ha', label: 'Hausa' });
    expect(one).toEqual({ languages: [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }], defaultLanguage: 'en' });
    expect(withLanguage(one as never, { code: 'hausa', label: 'hausa' })).toBe('The survey already has hausa');
    expect(withLanguage({}, { code: '', label: ' ' })).toBe('Give the language a name, e.g. Hausa');
  });

  it('types translations of labels, hints and option labels; the survey publishes them', () => {
    let next = withTranslation(qs[0]!, 'ha', 'text', 'Suna');
    next = withTranslation(next, 'ha', 'hint', 'Kamar a katin shaida');
    expect(next.translations).toEqual({ ha: { text: 'Suna', hint: 'Kamar a katin shaida' } });
    expect(withTranslation(withTranslation(qs[0]!, 'ha', 'text', 'Suna'), 'ha', 'text', '').translations).toBeUndefined();
    const state = withChoiceLabel(qs[1]!, 1, 'ha', 'Legas');
    expect(state.choices).toEqual([{ name: 'Kano', label: 'Kano' }, { name: 'Lagos', label: 'Lagos', labels: { ha: 'Legas' } }]);
    const body = { title: 'T', questions: [next, state], languages: [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }], defaultLanguage: 'en' };
    expect(CreateSurveyBody.safeParse(body).success).toBe(true);
  });

  it('makes another language the default by swapping the texts (choice names unchanged), and back', () => {
    const langs = { languages: [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }], defaultLanguage: 'en' };
    const translated = [withTranslation(qs[0]!, 'ha', 'text', 'Suna'), withChoiceLabel(qs[1]!, 1, 'ha', 'Legas')];
    const swapped = withDefaultLanguage(translated, langs, 'ha');
    expect(swapped.languages.defaultLanguage).toBe('ha');
    expect(swapped.questions[0]).toMatchObject({ text: 'Suna', hint: 'As on the ID card', translations: { en: { text: 'Name', hint: 'As on the ID card' } } });
    expect(swapped.questions[1]).toMatchObject({ options: ['Kano', 'Legas'], choices: [{ name: 'Kano', label: 'Kano' }, { name: 'Lagos', label: 'Legas', labels: { en: 'Lagos' } }] });
    const back = withDefaultLanguage(swapped.questions, swapped.languages, 'en');
    expect(back.questions[0]).toMatchObject({ text: 'Name', translations: { ha: { text: 'Suna' } } });
  });

  it('removes a language with its translations; one left is none', () => {
    const langs = { languages: [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }], defaultLanguage: 'en' };
    const out = withoutLanguage([withTranslation(qs[0]!, 'ha', 'text', 'Suna'), withChoiceLabel(qs[1]!, 1, 'ha', 'Legas')], langs, 'ha');
    expect(out.languages).toEqual({});
    expect(out.questions[0]!.translations).toBeUndefined();
    expect(out.questions[1]!.choices?.[1]).toEqual({ name: 'Lagos', label: 'Lagos' });
  });

  it('the reducer takes languages and translations together, and drops them all', () => {
    const start: BuilderState = { ...EMPTY_BUILDER, title: 'T', questions: qs };
    const next = builderReducer(start, { type: 'languages', questions: [withTranslation(qs[0]!, 'ha', 'text', 'Suna'), qs[1]!], languages: { languages: [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }], defaultLanguage: 'en' } });
    expect(next.languages).toHaveLength(2);
    expect(next.defaultLanguage).toBe('en');
    const none = builderReducer(next, { type: 'languages', questions: qs, languages: {} });
    expect(none.languages).toBeUndefined();
    expect(none.defaultLanguage).toBeUndefined();
  });
});
