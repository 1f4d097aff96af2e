import { QuestionType, type Survey } from '@survey-bird/contracts';

/**
 * A household survey on the XLSForm model, for the phone's tests: a field-list group, a roster
 * repeat (at least one member) with a constraint and a calculation inside, a total over the
 * roster, a group hidden unless the household farms, a note reading the total, and English and
 * Hausa texts.
 */
export const HOUSEHOLD_QUESTIONS = [
  { id: 'village', text: 'Village', type: QuestionType.text, compulsory: true, options: [], translations: { ha: { text: 'Kauye' } } },
  { id: 'household', text: 'Household', type: QuestionType.group, compulsory: false, options: [], appearance: 'field-list', translations: { ha: { text: 'Gida' } } },
  { id: 'head', text: 'Head of household', type: QuestionType.text, compulsory: true, options: [], parent: 'household', hint: 'As the household names them', translations: { ha: { text: 'Maigida', hint: 'Kamar yadda gidan ke kiransa' } } },
  {
    id: 'farms', text: 'Does the household farm?', type: QuestionType.select, compulsory: true, options: ['Yes', 'No'], parent: 'household',
    choices: [{ name: 'yes', label: 'Yes', labels: { ha: 'Ee' } }, { name: 'no', label: 'No', labels: { ha: "A'a" } }],
    translations: { ha: { text: 'Gidan yana noma?' } },
  },
  { id: 'members', text: 'Member', type: QuestionType.repeat, compulsory: false, options: [], repeat: { min: 1, max: 10 }, translations: { ha: { text: "Dan gida" } } },
  { id: 'name', text: 'Name', type: QuestionType.text, compulsory: true, options: [], parent: 'members', translations: { ha: { text: 'Suna' } } },
  {
    id: 'age', text: 'Age', type: QuestionType.number, compulsory: true, options: [], parent: 'members', constraintExpr: '. >= 0 and . <= 120',
    constraintMessage: 'An age is between 0 and 120', translations: { ha: { text: 'Shekaru', constraintMessage: 'Shekaru tsakanin 0 da 120' } },
  },
  { id: 'is_child', text: 'Is a child', type: QuestionType.calculate, compulsory: false, options: [], parent: 'members', calculation: 'if(${age} < 18, 1, 0)' },
  { id: 'children', text: 'Children', type: QuestionType.calculate, compulsory: false, options: [], calculation: 'sum(${is_child})' },
  { id: 'summary', text: '${children} of the members are children.', type: QuestionType.note, compulsory: false, options: [], translations: { ha: { text: '${children} daga cikin yan gidan yara ne.' } } },
  { id: 'farming', text: 'Farming', type: QuestionType.group, compulsory: false, options: [], relevantExpr: "${farms} = 'yes'", translations: { ha: { text: 'Noma' } } },
  { id: 'crop', text: 'Main crop', type: QuestionType.text, compulsory: true, options: [], parent: 'farming', translations: { ha: { text: 'Babban amfanin gona' } } },
] satisfies Survey['questions'];

export const HOUSEHOLD_LANGUAGES = { languages: [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }], defaultLanguage: 'en' } satisfies Pick<Survey, 'languages' | 'defaultLanguage'>;
