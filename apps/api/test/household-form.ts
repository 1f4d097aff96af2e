import { QuestionType } from '@survey-bird/contracts';

/**
 * A household survey in the XLSForm model, built in code: a group, a roster repeat counted by an
 * integer (with a constraint and a relevance inside), calculations (a child flag per member and
 * the number of children), a State -> LGA cascade whose LGA names repeat across States.
 */
export const HOUSEHOLD_QUESTIONS = [
  { id: 'hh', text: 'Household', type: QuestionType.group, appearance: 'field-list' },
  { id: 'head', text: 'Name of the head', type: QuestionType.text, parent: 'hh', translations: { ha: { text: 'Sunan maigida' } } },
  { id: 'n', text: 'How many members?', type: QuestionType.number, parent: 'hh', constraintExpr: '. >= 1 and . <= 30', constraintMessage: 'Between 1 and 30' },
  { id: 'members', text: 'Member', type: QuestionType.repeat, repeatCount: '${n}' },
  { id: 'name', text: 'Name', type: QuestionType.text, parent: 'members' },
  { id: 'age', text: 'Age', type: QuestionType.number, parent: 'members', constraintExpr: '. < 120', constraintMessage: 'Too old' },
  { id: 'school', text: 'In school?', type: QuestionType.select, parent: 'members', relevantExpr: '${age} < 18', options: ['Yes', 'No'], choices: [{ name: 'yes', label: 'Yes' }, { name: 'no', label: 'No' }] },
  { id: 'child', text: 'Is a child', type: QuestionType.calculate, parent: 'members', calculation: 'if(${age} < 18, 1, 0)' },
  { id: 'children', text: 'Children', type: QuestionType.calculate, calculation: 'sum(${child})' },
  { id: 'state', text: 'State', type: QuestionType.select, choices: [{ name: 'kn', label: 'Kano' }, { name: 'la', label: 'Lagos' }] },
  { id: 'lga', text: 'LGA', type: QuestionType.select, choiceFilter: 'state = ${state}', choices: [{ name: 'central', label: 'Central', columns: { state: 'kn' } }, { name: 'ikeja', label: 'Ikeja', columns: { state: 'la' } }, { name: 'central_la', label: 'Central', columns: { state: 'la' } }] },
  { id: 'visit', text: 'Visited', type: QuestionType.date, compulsory: false, constraintExpr: '. <= today()' },
];

/** A complete, valid response to the household survey: two members, one a child at school. */
export function householdAnswers(): Record<string, unknown> {
  return {
    'Name of the head': 'Musa Bello',
    'How many members?': '2',
    Member: [
      { Name: 'Musa Bello', Age: '40', 'Is a child': '0' },
      { Name: 'Aisha Bello', Age: '9', 'In school?': 'yes', 'Is a child': '1' },
    ],
    Children: '1',
    State: 'kn',
    LGA: 'central',
  };
}
