import type { StoredQuestion } from '@survey-bird/contracts';
import type { AnswerPath } from './answer-path';

/**
 * What the response editor renders: the form's tree for the answers so far, each entry already
 * decided by the contracts' form state (relevance, required, read-only, filtered choices, repeat
 * counts, calculated values) in the chosen language. Built by the lazy rules module
 * (capture/form-rules.ts), so no screen decides a rule; the screen only draws it.
 */
export type ViewNode = QuestionView | GroupView | RepeatView;

export interface ViewChoice {
  /** What the answer stores: the choice's name, or the option's text for a list without names. */
  value: string;
  label: string;
}

export interface QuestionView {
  kind: 'question';
  question: StoredQuestion;
  path: AnswerPath;
  /** pathKey(path): the key of its problem, its photo and its React element. */
  key: string;
  /** The shown question number (answerable questions in form order, repeats' instances included). */
  number: number;
  /** In the chosen language, `${q}` replaced by the answers so far. */
  label: string;
  hint?: string | undefined;
  guidanceHint?: string | undefined;
  required: boolean;
  readOnly: boolean;
  /** A select's or checkbox's choices after its choice filter, in the chosen language. */
  choices?: readonly ViewChoice[] | undefined;
}

export interface GroupView {
  kind: 'group';
  question: StoredQuestion;
  key: string;
  label: string;
  hint?: string | undefined;
  /** `field-list`: its members are one screen (one panel) rather than a titled run of questions. */
  fieldList: boolean;
  children: ViewNode[];
}

export interface RepeatInstanceView {
  /** Its 0-based index and key (pathKey of the instance). */
  index: number;
  key: string;
  children: ViewNode[];
}

export interface RepeatView {
  kind: 'repeat';
  question: StoredQuestion;
  /** Where its instances live (the instances around it), and its own answer key (its text). */
  at: AnswerPath['at'];
  key: string;
  label: string;
  hint?: string | undefined;
  instances: RepeatInstanceView[];
  /** repeat_count fixes the number: no add, no remove. */
  fixed: boolean;
  canAdd: boolean;
  canRemove: boolean;
}
