import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withQuestionIds } from '../form-rules/question-ids.js';
import { answerIssues, checkFormOf } from '../form-rules/response-check.js';
import { Msg } from '../messages.js';
import { CreateSurveyBody } from '../schemas/survey.js';
import { FormMsg } from './messages.js';
import { compileForm, type EngineQuestion } from './model.js';
import { answersById, answersByText, formState, stateKey } from './state.js';

/** A household form: a group with skip logic, a roster repeat counted by an integer, calculations, a cascade. */
const HOUSEHOLD = [
  { id: 'hh', text: 'Household', type: 'group', appearance: 'field-list' },
  { id: 'head', text: 'Name of the head', type: 'text answer', parent: 'hh', translations: { ha: { text: 'Sunan maigida' } } },
  { id: 'n', text: 'How many members?', type: 'number', parent: 'hh', constraintExpr: '. >= 1 and . <= 30', constraintMessage: 'Between 1 and 30' },
  { id: 'members', text: 'Member', type: 'repeat', repeatCount: '${n}' },
  { id: 'name', text: 'Name', type: 'text answer', parent: 'members' },
  { id: 'age', text: 'Age', type: 'number', parent: 'members', constraintExpr: '. < 120', constraintMessage: 'Too old' },
  { id: 'school', text: 'In school?', type: 'select', parent: 'members', relevantExpr: '${age} < 18', options: ['Yes', 'No'], choices: [{ name: 'yes', label: 'Yes' }, { name: 'no', label: 'No' }] },
  { id: 'child', text: 'Is a child', type: 'calculate', parent: 'members', calculation: 'if(${age} < 18, 1, 0)' },
  { id: 'children', text: 'Children', type: 'calculate', calculation: 'sum(${child})' },
  { id: 'greet', text: 'Thank ${head} for ${children} children', type: 'note' },
  { id: 'farm', text: 'Farming', type: 'group', relevantExpr: "${head} != 'nobody'" },
  { id: 'crop', text: 'Main crop', type: 'text answer', parent: 'farm', compulsory: false },
  { id: 'state', text: 'State', type: 'select', choices: [{ name: 'kn', label: 'Kano', labels: { ha: 'Kano (ha)' } }, { name: 'la', label: 'Lagos' }] },
  { id: 'lga', text: 'LGA', type: 'select', choiceFilter: 'state = ${state}', choices: [{ name: 'central', label: 'Central', columns: { state: 'kn' } }, { name: 'ikeja', label: 'Ikeja', columns: { state: 'la' } }, { name: 'central_la', label: 'Central', columns: { state: 'la' } }] },
  { id: 'visit', text: 'Visited', type: 'date', compulsory: false, constraintExpr: '. <= today()' },
  { id: 'when', text: 'When', type: 'start' },
];

function householdForm() {
  const body = CreateSurveyBody.parse({ title: 'Household', questions: HOUSEHOLD, languages: [{ code: 'ha', label: 'Hausa' }] });
  return compileForm(withQuestionIds(body.questions) as EngineQuestion[]);
}

/** A complete, valid response to the household form (keyed by text, the roster nested). */
function householdAnswers(): Record<string, unknown> {
  return {
    'Name of the head': 'Musa',
    'How many members?': '2',
    Member: [
      { Name: 'Musa', Age: '40', 'Is a child': '0' },
      { Name: 'Aisha', Age: '9', 'In school?': 'yes', 'Is a child': '1' },
    ],
    Children: '1',
    'Main crop': 'Maize',
    State: 'kn',
    LGA: 'central',
    When: '2026-11-28T08:00:00.000+01:00',
  };
}

const refusals = (answers: Record<string, unknown>, mode: 'phone' | 'server' = 'server') => formState(householdForm(), answers, { mode }).issues.map((i) => i.refusal);

describe('formState: the one form engine', () => {
  it('accepts a complete household response', () => {
    expect(refusals(householdAnswers())).toEqual([]);
    expect(refusals(householdAnswers(), 'phone')).toEqual([]);
  });

  it('converts answers between texts and ids, repeats nested', () => {
    const form = householdForm();
    const byId = answersById(form, householdAnswers());
    expect(byId.members).toEqual([
      { name: 'Musa', age: '40', child: '0' },
      { name: 'Aisha', age: '9', school: 'yes', child: '1' },
    ]);
    expect(answersByText(form, byId)).toEqual(householdAnswers());
  });

  it('computes calculations in dependency order, relative inside repeats, and writes them into the answers', () => {
    const answers = householdAnswers();
    delete answers.Children;
    for (const m of answers.Member as Record<string, unknown>[]) delete m['Is a child'];
    const state = formState(householdForm(), answers, { mode: 'phone' });
    expect(state.issues).toEqual([]);
    expect(state.answers.Children).toBe('1');
    expect((state.answers.Member as Record<string, unknown>[]).map((m) => m['Is a child'])).toEqual(['0', '1']);
  });

  it('refuses a tampered calculation on the server, naming it', () => {
    expect(refusals({ ...householdAnswers(), Children: '5' })).toEqual([`"Children": ${FormMsg.calculationMismatch}`]);
  });

  it('applies relevance inside a repeat instance by instance, and a group\'s to its members', () => {
    const answers = householdAnswers();
    (answers.Member as Record<string, unknown>[])[0]!['In school?'] = 'yes';
    expect(refusals(answers)).toEqual([`"In school?" in Member 1: This question is hidden by an earlier answer and cannot be answered`]);
    const state = formState(householdForm(), { ...householdAnswers(), 'Name of the head': 'nobody', 'Main crop': undefined }, { mode: 'phone' });
    expect(state.questions.get('crop')!.relevant).toBe(false);
    expect(state.questions.get(stateKey('school', [{ repeat: 'members', index: 1 }]))!.relevant).toBe(true);
    expect(refusals({ ...householdAnswers(), 'Name of the head': 'nobody' })).toEqual(['"Main crop": This question is hidden by an earlier answer and cannot be answered']);
  });

  it('checks constraints with `.` inside a repeat, naming the question and the instance', () => {
    const answers = householdAnswers();
    (answers.Member as Record<string, unknown>[])[1]!.Age = '130';
    // The calculation follows the answer; the constraint refuses it.
    (answers.Member as Record<string, unknown>[])[1]!['Is a child'] = '0';
    delete (answers.Member as Record<string, unknown>[])[1]!['In school?'];
    answers.Children = '0';
    expect(refusals(answers)).toEqual(['"Age" in Member 2: Too old']);
  });

  it('holds the repeat to its count', () => {
    expect(refusals({ ...householdAnswers(), 'How many members?': '3' })).toEqual([`"Member": ${FormMsg.repeatCount(3)}`]);
    expect(formState(householdForm(), householdAnswers()).repeatCounts.get('members')).toBe(2);
  });

  it('filters choices and refuses an answer outside the filter', () => {
    const state = formState(householdForm(), householdAnswers());
    expect(state.choices('lga').map((c) => c.name)).toEqual(['central']);
    expect(refusals({ ...householdAnswers(), LGA: 'ikeja' })).toEqual([`"LGA": ${FormMsg.notAmongFiltered}`]);
    expect(refusals({ ...householdAnswers(), LGA: 'nowhere' })).toEqual(['"LGA": Choose from the options of this question']);
  });

  it('substitutes ${q} in labels, a select by its choice label, in the chosen language', () => {
    const form = householdForm();
    expect(formState(form, householdAnswers()).label('greet')).toBe('Thank Musa for 1 children');
    expect(formState(form, householdAnswers(), { language: 'ha' }).label('head')).toBe('Sunan maigida');
  });

  it('never refuses on the server for a clock-made rule', () => {
    // A visit "in the future" by the server's clock: the phone judged today() at its own time.
    expect(refusals({ ...householdAnswers(), Visited: '2999-01-01' })).toEqual([]);
    expect(refusals({ ...householdAnswers(), Visited: '2999-01-01' }, 'phone')).toEqual(['"Visited": Value not allowed']);
  });

  it('refuses answers no question of their scope has, and the wrong shapes', () => {
    const answers = householdAnswers();
    (answers.Member as Record<string, unknown>[])[0]!.Shoe = '42';
    expect(refusals(answers)).toEqual(['"Shoe" in Member 1 is not a question of this survey']);
    expect(refusals({ ...householdAnswers(), Member: 'two' })[0]).toBe(`"Member": ${FormMsg.repeatShape}`);
    expect(refusals({ ...householdAnswers(), 'Name of the head': [{ a: '1' }] })).toEqual([`"Name of the head": ${FormMsg.repeatAnswerShape}`]);
  });

  it('reports a compulsory question left out with the spec\'s message', () => {
    const answers = householdAnswers();
    delete answers['Name of the head'];
    expect(refusals(answers)[0]).toBe(Msg.fillCompulsory);
    const inside = householdAnswers();
    delete (inside.Member as Record<string, unknown>[])[0]!.Name;
    expect(refusals(inside)).toEqual(['"Name" in Member 1: This question is compulsory']);
  });

  it('is what answerIssues runs for a form using the model', () => {
    const form = checkFormOf(withQuestionIds(CreateSurveyBody.parse({ title: 'H', questions: HOUSEHOLD }).questions));
    expect(form.model).not.toBeNull();
    expect([...answerIssues(form, { ...householdAnswers(), Children: '5' } as never, new Date(), 'server')].map((i) => i.refusal)).toEqual([`"Children": ${FormMsg.calculationMismatch}`]);
    // A builder's form without the model keeps the builder's evaluator.
    expect(checkFormOf(withQuestionIds([{ text: 'A', type: 'text answer', compulsory: true }])).model).toBeNull();
  });

  it('keeps the builder\'s show-if working inside a model form', () => {
    const form = compileForm(withQuestionIds(CreateSurveyBody.parse({
      title: 'T',
      questions: [
        { id: 'a', text: 'A', type: 'select', options: ['Yes', 'No'] },
        { id: 'b', text: 'B', type: 'text answer', showIf: { conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } },
        { id: 'c', text: 'C', type: 'calculate', calculation: 'concat(${a}, "!")' },
      ],
    }).questions) as EngineQuestion[]);
    expect(formState(form, { A: 'No', B: 'x', C: 'No!' }, { mode: 'server' }).issues.map((i) => i.refusal)).toEqual(['"B": This question is hidden by an earlier answer and cannot be answered']);
    expect(formState(form, { A: 'Yes', B: 'x', C: 'Yes!' }, { mode: 'server' }).issues).toEqual([]);
  });
});

describe('a response the phone accepts is accepted by the server (property)', () => {
  const form = householdForm();
  const member = fc.record({
    Name: fc.constantFrom('Musa', 'Aisha', ''),
    Age: fc.oneof(fc.integer({ min: 0, max: 17 }), fc.integer({ min: 18, max: 130 })).map(String),
    'In school?': fc.option(fc.constantFrom('yes', 'no', 'maybe'), { nil: undefined, freq: 2 }),
    'Is a child': fc.option(fc.constantFrom('0', '1', '2'), { nil: undefined }),
    tidy: fc.boolean(),
  }, { requiredKeys: ['Name', 'Age', 'tidy'] }).map(({ tidy, ...m }) => {
    // Half the members answer "In school?" exactly when it is asked (a child), as the phone's form would.
    if (tidy) {
      if (Number(m.Age) < 18) m['In school?'] = m['In school?'] === 'no' ? 'no' : 'yes';
      else delete m['In school?'];
    }
    return m;
  });
  const response = fc.record({
    'Name of the head': fc.constantFrom('Musa', 'nobody'),
    'How many members?': fc.integer({ min: 0, max: 4 }).map(String),
    Member: fc.array(member, { minLength: 1, maxLength: 4 }),
    countMatches: fc.boolean(),
    Children: fc.option(fc.integer({ min: 0, max: 4 }).map(String), { nil: undefined }),
    'Main crop': fc.option(fc.constantFrom('Maize', ''), { nil: undefined }),
    State: fc.constantFrom('kn', 'la'),
    LGA: fc.constantFrom('central', 'ikeja', 'central_la', 'central'),
    Visited: fc.option(fc.constantFrom('2020-01-01', '2999-01-01'), { nil: undefined }),
  }, { requiredKeys: ['Name of the head', 'How many members?', 'Member', 'countMatches', 'State', 'LGA'] });

  it('holds for random household responses', () => {
    let accepted = 0;
    fc.assert(
      fc.property(response, ({ countMatches, ...raw }) => {
        const answers = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
        // Most rosters have as many members as the count says (else the repeat count refuses them all).
        if (countMatches) answers['How many members?'] = String(raw.Member.length);
        const phone = formState(form, answers, { mode: 'phone' });
        if (phone.issues.length > 0) return;
        accepted++;
        // What the phone queues: its answers with the calculations it computed.
        const sent = JSON.parse(JSON.stringify(phone.answers)) as Record<string, unknown>;
        expect(formState(form, sent, { mode: 'server' }).issues).toEqual([]);
        expect([...answerIssues(checkFormOf(form.questions), sent as never, new Date(), 'server')]).toEqual([]);
      }),
      { numRuns: 600, seed: 29 },
    );
    // The property is about accepted responses: enough of them must have been generated.
    expect(accepted).toBeGreaterThan(20);
  });
});
