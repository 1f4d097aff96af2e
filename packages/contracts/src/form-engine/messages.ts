/** What the form shows under a question and the API answers (400, naming the question and its repeat instance). */
export const FormMsg = {
  /** ODK's words when a constraint has no message of its own. */
  constraint: 'Value not allowed',
  /** A select's answer outside its choice filter: a choice of another State's LGAs. */
  notAmongFiltered: 'Not one of the choices for the earlier answers',
  /** A calculate question's value differs from its calculation over the same answers. */
  calculationMismatch: 'The calculated value does not match its calculation',
  datetime: 'Enter a date and time',
  acknowledge: 'Confirm with OK',
  rankOnce: 'Each choice may be ranked once',
  rankAll: 'Put every choice in order',
  rangeStep: (step: number) => `Must be a step of ${step}`,
  repeatCount: (n: number) => `Must have exactly ${n} ${n === 1 ? 'entry' : 'entries'}`,
  repeatMin: (n: number) => `Add at least ${n} ${n === 1 ? 'entry' : 'entries'}`,
  repeatMax: (n: number) => `At most ${n} ${n === 1 ? 'entry' : 'entries'}`,
  repeatShape: 'Must be a list of entries',
  repeatAnswerShape: 'Must be text, not a list of entries',
  textShape: 'Must be text, not a list',
  listShape: 'Must be a list of choices',
  noteAnswered: 'A note takes no answer',
} as const;
