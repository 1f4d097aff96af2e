import { Limits, QuestionType } from '@survey-bird/contracts';

/** How the phone's keyboard opens for a typed question (issue 17): a numeric keypad for numbers. */
const TYPED_INPUT: Partial<Record<string, { type: string; inputMode: 'numeric' | 'decimal' | 'tel' | 'email' | 'text'; placeholder?: string }>> = {
  [QuestionType.number]: { type: 'text', inputMode: 'numeric', placeholder: 'A whole number' },
  [QuestionType.decimal]: { type: 'text', inputMode: 'decimal', placeholder: 'A number, e.g. 12.5' },
  [QuestionType.date]: { type: 'date', inputMode: 'text' },
  [QuestionType.time]: { type: 'time', inputMode: 'text' },
  [QuestionType.phone]: { type: 'tel', inputMode: 'tel', placeholder: '080… or +234…' },
  [QuestionType.email]: { type: 'email', inputMode: 'email', placeholder: 'name@example.com' },
};

interface Props {
  id: string;
  type: string;
  invalid: object;
  value: string;
  onAnswer: (value: string) => void;
}

/** A typed answer's input: the keyboard a phone opens for it (a numeric keypad for numbers), a date or time picker. */
export function TypedInput({ id, type, invalid, value, onAnswer }: Props) {
  const typed = TYPED_INPUT[type] ?? { type: 'text', inputMode: 'text' as const };
  return <input id={id} type={typed.type} inputMode={typed.inputMode} className="q__control" {...invalid} maxLength={Limits.maxAnswerLength} value={value} autoComplete="off" placeholder={typed.placeholder} onChange={(e) => onAnswer(e.currentTarget.value)} />;
}

export default TypedInput;
