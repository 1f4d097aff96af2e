import { ApiMsg, Msg, NO_ANSWER_QUESTION_TYPES, isPersonalQuestion, type Question, QuestionType } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import {
  builderReducer,
  commitProblem,
  EMPTY_BUILDER,
  EMPTY_FORM,
  firstCsvColumn,
  formOptions,
  formLogicSummary,
  importedText,
  isBlank,
  keepFormFields,
  nestingDepths,
  opsFor,
  parseDatasetFile,
  parseDatasetText,
  parseDraft,
  publishBody,
  showIfSummary,
  type BuilderAction,
  type BuilderState,
} from './builder';

const run = (...actions: BuilderAction[]): BuilderState => actions.reduce(builderReducer, EMPTY_BUILDER);
const form = (change: Partial<typeof EMPTY_FORM>): BuilderAction => ({ type: 'form', change });
const commit: BuilderAction = { type: 'commit' };
const q = (text: string, type: QuestionType = QuestionType.text, options: string[] = [], compulsory = true): Question => ({ text, type, options, compulsory });
/** A question as the builder commits it: with the stable id it minted and its personal mark said (its type's default here). */
const qi = (...args: Parameters<typeof q>) => {
  const made = q(...args);
  return { id: expect.stringMatching(/^q[a-z0-9]{8}$/), ...made, ...(NO_ANSWER_QUESTION_TYPES.includes(made.type) ? {} : { personal: isPersonalQuestion(made) }) };
};

describe('adding questions', () => {
  it('appends a question and resets the form, compulsory on again', () => {
    const s = run(form({ text: ' Name? ', compulsory: false }), commit);
    expect(s.questions).toEqual([qi('Name?', QuestionType.text, [], false)]);
    expect(s.form).toEqual(EMPTY_FORM);
    expect(s.form.compulsory).toBe(true);
    expect(s.editing).toBeNull();
  });

  it('starts with a compulsory text question', () => {
    expect(EMPTY_FORM).toMatchObject({ type: QuestionType.text, compulsory: true });
  });

  it('splits select and checkbox options on commas, trimmed, blanks dropped', () => {
    const s = run(form({ text: 'Fruit', type: QuestionType.checkbox, options: ' apple, ,banana ,, cherry ' }), commit);
    expect(s.questions[0]!.options).toEqual(['apple', 'banana', 'cherry']);
  });

  it('drops options of types that take none', () => {
    const s = run(form({ text: 'Where?', type: QuestionType.select, options: 'a, b' }), form({ type: QuestionType.liveLocation }), commit);
    expect(s.questions[0]).toEqual(qi('Where?', QuestionType.liveLocation));
  });

  it('never selects files', () => {
    const s = run(form({ type: QuestionType.files }));
    expect(s.form.type).toBe(QuestionType.text);
  });
});

describe('validation messages', () => {
  const state = (change: Partial<typeof EMPTY_FORM>, questions: Question[] = []): BuilderState => ({ ...EMPTY_BUILDER, questions, form: { ...EMPTY_FORM, ...change } });

  it('refuses empty question text', () => {
    expect(commitProblem(state({ text: '   ' }))).toBe(ApiMsg.questionTextEmpty);
    expect(run(form({ text: '  ' }), commit).questions).toEqual([]);
  });

  it('needs two non-empty options for select and checkbox', () => {
    expect(commitProblem(state({ text: 'Pick', type: QuestionType.select, options: 'only, , ' }))).toBe(ApiMsg.optionsMinimum);
    expect(commitProblem(state({ text: 'Pick', type: QuestionType.checkbox, options: '' }))).toBe(ApiMsg.optionsMinimum);
    expect(commitProblem(state({ text: 'Pick', type: QuestionType.select, options: 'a,b' }))).toBeNull();
  });

  it('does not enforce the 50 in the placeholder', () => {
    const many = Array.from({ length: 80 }, (_, i) => `o${i}`).join(',');
    expect(commitProblem(state({ text: 'Pick', type: QuestionType.select, options: many }))).toBeNull();
  });

  it('needs a list for a large select', () => {
    expect(commitProblem(state({ text: 'LGA', type: QuestionType.largeSelect }))).not.toBeNull();
    expect(commitProblem(state({ text: 'LGA', type: QuestionType.largeSelect, dataset: ['Ikeja'] }))).toBeNull();
  });

  it('refuses a question text already used, ignoring case', () => {
    expect(commitProblem(state({ text: 'name?' }, [q('Name?')]))).toBe(Msg.duplicateQuestion);
  });
});

describe('editing', () => {
  const three = run(form({ text: 'A' }), commit, form({ text: 'B', type: QuestionType.select, options: 'x, y' }), commit, form({ text: 'C' }), commit);

  it('loads a question into the form', () => {
    const s = builderReducer(three, { type: 'edit', index: 1 });
    expect(s.editing).toBe(1);
    expect(s.form).toMatchObject({ text: 'B', type: QuestionType.select, options: 'x, y', compulsory: true });
  });

  it('saves in place and resets the form', () => {
    const s = [{ type: 'edit', index: 1 } as const, form({ text: 'B2', compulsory: false }), commit].reduce(builderReducer, three);
    expect(s.questions.map((x) => x.text)).toEqual(['A', 'B2', 'C']);
    expect(s.questions[1]).toEqual(qi('B2', QuestionType.select, ['x', 'y'], false));
    expect(s.form).toEqual(EMPTY_FORM);
    expect(s.editing).toBeNull();
  });

  it('lets a question keep its own text when saved', () => {
    const editing = builderReducer(three, { type: 'edit', index: 0 });
    expect(commitProblem(editing)).toBeNull();
  });

  it('cancels an edit', () => {
    const s = [{ type: 'edit', index: 2 } as const, { type: 'cancelEdit' } as const].reduce(builderReducer, three);
    expect(s).toMatchObject({ editing: null, form: EMPTY_FORM, questions: three.questions });
  });

  it('deletes, keeping the edited question in the form', () => {
    const editingC = builderReducer(three, { type: 'edit', index: 2 });
    const s = builderReducer(editingC, { type: 'delete', index: 0 });
    expect(s.questions.map((x) => x.text)).toEqual(['B', 'C']);
    expect(s.editing).toBe(1);
    const saved = [form({ text: 'C2' }), commit].reduce(builderReducer, s);
    expect(saved.questions.map((x) => x.text)).toEqual(['B', 'C2']);
  });

  it('deleting the edited question clears the form', () => {
    const s = [{ type: 'edit', index: 1 } as const, { type: 'delete', index: 1 } as const].reduce(builderReducer, three);
    expect(s).toMatchObject({ editing: null, form: EMPTY_FORM });
    expect(s.questions.map((x) => x.text)).toEqual(['A', 'C']);
  });

  it('edits a large select with its list', () => {
    const s = run(form({ text: 'LGA', type: QuestionType.largeSelect, options: 'Ikeja\nEpe\nBadagry' }), commit, { type: 'edit', index: 0 });
    expect(s.form.dataset).toEqual(['Ikeja', 'Epe', 'Badagry']);
    expect(formOptions(s.form)).toEqual(['Ikeja', 'Epe', 'Badagry']);
  });
});

describe('large select lists', () => {
  it('takes one option per line, or commas on a single line', () => {
    expect(parseDatasetText('Ikeja\r\n Epe \n\nBadagry\n')).toEqual(['Ikeja', 'Epe', 'Badagry']);
    expect(parseDatasetText('Ikeja, Epe,Badagry')).toEqual(['Ikeja', 'Epe', 'Badagry']);
    expect(parseDatasetText('Lagos, Nigeria\nAbuja, Nigeria')).toEqual(['Lagos, Nigeria', 'Abuja, Nigeria']);
  });

  it('drops duplicates', () => {
    expect(parseDatasetText('a\nb\na')).toEqual(['a', 'b']);
  });

  it('reads the first column of a CSV', () => {
    const csv = '\uFEFFname,state\r\n"Ikeja, GRA",Lagos\r\n"Say ""hi""",x\n"two\nlines",y\nEpe';
    expect(firstCsvColumn(csv)).toEqual(['name', 'Ikeja, GRA', 'Say "hi"', 'two\nlines', 'Epe']);
    expect(parseDatasetFile('LGAs.CSV', 'a,1\nb,2\n')).toEqual(['a', 'b']);
    expect(parseDatasetFile('lgas.txt', 'a,1\nb,2\n')).toEqual(['a,1', 'b,2']);
  });
});

describe('publishBody', () => {
  const ready = run({ type: 'survey', change: { title: 'Census', description: 'Ward 4' } }, form({ text: 'Name?' }), commit);

  it('asks for a title first', () => {
    expect(publishBody({ ...ready, title: '  ' })).toEqual({ ok: false, msg: Msg.provideFormTitle });
    expect(publishBody(EMPTY_BUILDER)).toEqual({ ok: false, msg: Msg.provideFormTitle });
  });

  it('needs a question', () => {
    expect(publishBody({ ...ready, questions: [] })).toMatchObject({ ok: false });
  });

  it('treats expected responses as optional', () => {
    const r = publishBody(ready);
    expect(r).toEqual({ ok: true, body: { title: 'Census', description: 'Ward 4', expectedResponseCount: null, payAfterReview: false, questions: [qi('Name?')] } });
    const withCount = publishBody({ ...ready, expected: ' 250 ' });
    expect(withCount.ok && withCount.body.expectedResponseCount).toBe(250);
    expect(publishBody({ ...ready, expected: '2.5' }).ok).toBe(false);
  });
});

describe('drafts', () => {
  it('round-trips through JSON', () => {
    const s = run({ type: 'survey', change: { title: 'T', expected: '9' } }, form({ text: 'A' }), commit, form({ text: 'half typed', type: QuestionType.select, options: 'x' }));
    expect(parseDraft(JSON.stringify(s))).toEqual(s);
  });

  it('ignores unreadable drafts and bad questions', () => {
    expect(parseDraft(null)).toBeNull();
    expect(parseDraft('nope')).toBeNull();
    const d = parseDraft(JSON.stringify({ title: 3, questions: [q('ok'), { text: 'bad', type: 'video' }], form: { type: QuestionType.files }, editing: 7 }));
    expect(d).toEqual({ ...EMPTY_BUILDER, questions: [q('ok')] });
  });

  it('knows an empty builder', () => {
    expect(isBlank(EMPTY_BUILDER)).toBe(true);
    expect(isBlank(run(form({ text: 'x' })))).toBe(false);
  });
});

describe('issue 17: types, limits and show-if in the builder', () => {
  it('builds a number question with limits and a message, and a text question shown if an earlier answer is "Yes"', () => {
    let s = run(form({ text: 'Married?', type: QuestionType.select, options: 'Yes, No' }), commit);
    const a = s.questions[0]!.id!;
    s = run({ type: 'restore', state: s }, form({ text: 'Age', type: QuestionType.number, min: '0', max: '120', message: 'Check the age' }), commit);
    expect(s.questions[1]).toMatchObject({ type: 'number', constraint: { min: 0, max: 120, message: 'Check the age' } });
    s = builderReducer(s, { type: 'form', change: { text: 'Spouse' } });
    s = builderReducer(s, { type: 'addCondition', question: a });
    expect(commitProblem(s)).toBe('A condition needs a value to compare with');
    s = builderReducer(s, { type: 'condition', index: 0, change: { value: 'Yes' } });
    s = builderReducer(s, commit);
    expect(s.questions[2]).toMatchObject({ text: 'Spouse', showIf: { combine: 'all', conditions: [{ question: a, op: 'equals', value: 'Yes' }] } });
    expect(s.questions[2]).not.toHaveProperty('constraint');
    const published = publishBody({ ...s, title: 'Household' });
    expect(published.ok).toBe(true);
  });

  it('refuses limits that are not numbers, and keeps only the limits of the type', () => {
    expect(commitProblem(run(form({ text: 'Age', type: QuestionType.number, min: 'ten' })))).toBe('Min and max must be numbers');
    const s = run(form({ text: 'Born', type: QuestionType.date, min: '2000-01-01', notInFuture: true, minLength: '3' }), commit);
    expect(s.questions[0]!.constraint).toEqual({ min: '2000-01-01', notInFuture: true });
  });

  it('makes a note never compulsory, and keeps the rules through edit and draft', () => {
    const s = run(form({ text: 'Read this', type: QuestionType.note, compulsory: true }), commit);
    expect(s.questions[0]!.compulsory).toBe(false);
    const withRules = run(form({ text: 'Age', type: QuestionType.number, max: '120' }), commit, { type: 'edit', index: 0 });
    expect(withRules.form.max).toBe('120');
    expect(parseDraft(JSON.stringify(withRules))).toEqual(withRules);
  });
});

describe("show-if: which condition, and only the tests a question's type offers", () => {
  it('says which condition: "Shown if Q1 is Yes", and names each of several by number', () => {
    let s = run(form({ text: 'Married?', type: QuestionType.select, options: 'Yes, No' }), commit, form({ text: 'Age', type: QuestionType.number }), commit);
    const [married, age] = s.questions.map((x) => x.id!);
    s = run({ type: 'restore', state: s }, form({ text: 'Spouse' }), { type: 'addCondition', question: married! }, { type: 'condition', index: 0, change: { value: 'Yes' } }, commit);
    expect(showIfSummary(s.questions[2]!.showIf!, s.questions)).toBe('Shown if Q1 is Yes');
    const any = { combine: 'any' as const, conditions: [{ question: age!, op: 'greaterThan' as const, value: 17 }, { question: married!, op: 'answered' as const }] };
    expect(showIfSummary(any, s.questions)).toBe('Shown if Q2 is greater than 17 or Q1 is answered');
    expect(showIfSummary({ ...any, combine: 'all' }, s.questions)).toBe('Shown if Q2 is greater than 17 and Q1 is answered');
  });

  it('a yes/no select offers only is, is not and is answered; numbers, dates and times also compare; a checkbox list includes', () => {
    expect(opsFor(QuestionType.select)).toEqual(['equals', 'notEquals', 'answered']);
    expect(opsFor(QuestionType.largeSelect)).toEqual(['equals', 'notEquals', 'answered']);
    expect(opsFor(QuestionType.text)).toEqual(['equals', 'notEquals', 'answered']);
    expect(opsFor(QuestionType.checkbox)).toEqual(['includes', 'answered']);
    for (const t of [QuestionType.number, QuestionType.decimal, QuestionType.date, QuestionType.time]) expect(opsFor(t)).toContain('greaterThan');
    expect(opsFor(QuestionType.image)).toEqual(['answered']);
  });

  it('a test the chosen question does not offer falls back to its first: greater than on a select becomes is', () => {
    let s = run(form({ text: 'Married?', type: QuestionType.select, options: 'Yes, No' }), commit, form({ text: 'Age', type: QuestionType.number }), commit, form({ text: 'Spouse' }));
    const [married, age] = s.questions.map((x) => x.id!);
    s = builderReducer(s, { type: 'addCondition', question: age! });
    s = builderReducer(s, { type: 'condition', index: 0, change: { op: 'greaterThan', value: '17' } });
    expect(s.form.conditions[0]).toMatchObject({ op: 'greaterThan' });
    s = builderReducer(s, { type: 'condition', index: 0, change: { question: married!, value: '' } });
    expect(s.form.conditions[0]).toMatchObject({ question: married, op: 'equals' });
    s = builderReducer(s, { type: 'condition', index: 0, change: { op: 'greaterThan' } });
    expect(s.form.conditions[0]!.op).toBe('equals');
  });
});

describe('an imported XLSForm in the builder', () => {
  const imported: Question[] = [
    { id: 'hh', text: 'Household', type: QuestionType.group, compulsory: false, options: [], appearance: 'field-list' },
    { id: 'size', text: 'How many people?', type: QuestionType.number, compulsory: true, options: [], parent: 'hh', hint: 'Everyone who sleeps here', translations: { ha: { text: 'Mutane nawa?' } } },
    { id: 'member', text: 'Member', type: QuestionType.repeat, compulsory: false, options: [], repeatCount: '${size}' },
    { id: 'sex', text: 'Sex', type: QuestionType.select, compulsory: true, options: ['Male', 'Female'], parent: 'member', choices: [{ name: 'm', label: 'Male' }, { name: 'f', label: 'Female' }], relevantExpr: '${size} > 0' },
    { id: 'kids', text: 'kids', type: QuestionType.calculate, compulsory: false, options: [], calculation: 'count(${sex})' },
  ];
  const languages = [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }];

  it('shows members under their group and repeat, and the logic it keeps', () => {
    expect(nestingDepths(imported)).toEqual([0, 1, 0, 1, 0]);
    expect(formLogicSummary(imported[2]!)).toEqual(['Repeated by ${size}']);
    expect(formLogicSummary(imported[1]!)).toEqual(['2 languages']);
    expect(formLogicSummary(imported[4]!)).toEqual(['= count(${sex})']);
    expect(importedText(imported)).toBe('3 questions in 1 group and 1 repeat');
    expect(importedText(imported.slice(1, 2))).toBe('1 question');
  });

  it('keeps what the form does not show when a question is edited and saved; the choice names only while the options stay', () => {
    const state = { ...EMPTY_BUILDER, title: 'Roster', questions: imported, languages, defaultLanguage: 'en' };
    const edited = ([{ type: 'edit', index: 1 }, { type: 'form', change: { text: 'How many people live here?' } }, { type: 'commit' }] as BuilderAction[]).reduce(builderReducer, state);
    expect(edited.questions[1]).toMatchObject({ id: 'size', text: 'How many people live here?', parent: 'hh', hint: 'Everyone who sleeps here', translations: { ha: { text: 'Mutane nawa?' } } });
    // The form loads the expressions and saves them back; an option renamed is a new choice named by its label.
    const relabelled = ([{ type: 'edit', index: 3 }, { type: 'form', change: { options: 'Male, Woman' } }, { type: 'commit' }] as BuilderAction[]).reduce(builderReducer, state).questions[3]!;
    expect(relabelled).toMatchObject({ parent: 'member', relevantExpr: '${size} > 0', options: ['Male', 'Woman'] });
    expect(relabelled.choices).toEqual([{ name: 'm', label: 'Male' }, { name: 'Woman', label: 'Woman' }]);
    // An expression emptied in the form is removed, not kept.
    const cleared = ([{ type: 'edit', index: 3 }, { type: 'form', change: { relevantExpr: '' } }, { type: 'commit' }] as BuilderAction[]).reduce(builderReducer, state).questions[3]!;
    expect(cleared.relevantExpr).toBeUndefined();
    expect(cleared.choices).toEqual(imported[3]!.choices);
    expect(keepFormFields(imported[3]!, { id: 'sex', text: 'Sex of the member', type: QuestionType.select, compulsory: true, options: ['Male', 'Female'] })).toMatchObject({ parent: 'member' });
  });

  it('publishes the languages with the questions, and keeps them in the saved draft', () => {
    const state: BuilderState = { ...EMPTY_BUILDER, title: 'Roster', questions: imported, languages, defaultLanguage: 'en' };
    const checked = publishBody(state);
    expect(checked.ok && checked.body.languages).toEqual(languages);
    expect(checked.ok && checked.body.defaultLanguage).toBe('en');
    const back = parseDraft(JSON.stringify(state));
    expect(back?.languages).toEqual(languages);
    expect(back?.defaultLanguage).toBe('en');
    expect(back?.questions).toEqual(imported);
  });
});
