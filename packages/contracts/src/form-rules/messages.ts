import { Limits } from '../constants.js';

/** What the form shows under a question and the API answers (400 naming the question). */
export const RuleMsg = {
  required: 'This question is compulsory',
  hidden: 'This question is hidden by an earlier answer and cannot be answered',
  whole: 'Enter a whole number',
  decimal: 'Enter a number',
  date: 'Enter a date',
  time: 'Enter a time',
  phone: 'Enter a Nigerian phone number (11 digits starting 0, or +234)',
  email: 'Enter a valid e-mail address',
  between: (min: string, max: string) => `Must be between ${min} and ${max}`,
  atLeast: (min: string) => `Must be at least ${min}`,
  atMost: (max: string) => `Must be at most ${max}`,
  notInFuture: 'Must not be in the future',
  lengthBetween: (min: number, max: number) => `Must be between ${min} and ${max} characters`,
  minLength: (min: number) => `Must be at least ${min} characters`,
  maxLength: (max: number) => `Must be at most ${max} characters`,
  /** A select, checkbox or large select answer that is not in the list of the version it was filled against. */
  notAnOption: 'Choose from the options of this question',
  answerTooLong: `An answer is too long (max ${Limits.maxAnswerLength})`,
} as const;
