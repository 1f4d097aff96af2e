import { Limits, QuestionType } from '@survey-bird/contracts';
import { lazy } from 'react';
import type { QuestionFieldProps } from './QuestionField';

// Each loads only when a form shows such a question (the QuestionField's Suspense waits for it).
const SignatureQuestion = lazy(() => import('./SignatureQuestion'));
const BarcodeQuestion = lazy(() => import('./BarcodeQuestion'));

/** How the phone's keyboard opens for a typed question: a numeric keypad for numbers. */
const TYPED_INPUT: Partial<Record<string, { type: string; inputMode: 'numeric' | 'decimal' | 'tel' | 'email' | 'text'; placeholder?: string }>> = {
  [QuestionType.number]: { type: 'text', inputMode: 'numeric', placeholder: 'A whole number' },
  [QuestionType.decimal]: { type: 'text', inputMode: 'decimal', placeholder: 'A number, e.g. 12.5' },
  [QuestionType.date]: { type: 'date', inputMode: 'text' },
  [QuestionType.time]: { type: 'time', inputMode: 'text' },
  [QuestionType.phone]: { type: 'tel', inputMode: 'tel', placeholder: '080… or +234…' },
  [QuestionType.email]: { type: 'email', inputMode: 'email', placeholder: 'name@example.com' },
};

type Props = QuestionFieldProps & { id: string; invalid: object };

/** A typed answer's input: the keyboard a phone opens for it (a numeric keypad for numbers), a date or time picker. */
export function TypedInput({ id, question, invalid, value: answer, onAnswer, photo, processing, onPhoto }: Props) {
  const { type, text: label } = question;
  const value = typeof answer === 'string' ? answer : '';
  // A note is read-only text: its question text is all it shows, with no input and no answer.
  if (type === QuestionType.note) return null;
  if (type === QuestionType.signature) return <SignatureQuestion id={id} label={label} photo={photo} processing={processing} onPhoto={onPhoto} />;
  if (type === QuestionType.barcode) return <BarcodeQuestion id={id} value={value} invalid={invalid} onAnswer={onAnswer} />;
  const typed = TYPED_INPUT[type] ?? { type: 'text', inputMode: 'text' as const };
  return <input id={id} type={typed.type} inputMode={typed.inputMode} className="q__control" {...invalid} maxLength={Limits.maxAnswerLength} value={value} autoComplete="off" placeholder={typed.placeholder} onChange={(e) => onAnswer(e.currentTarget.value)} />;
}

export default TypedInput;
