import { Limits, QuestionType } from '@survey-bird/contracts';
import { lazy } from 'react';
import type { QuestionFieldProps } from './QuestionField';
import { msgId, useT } from '../../lib/i18n';

// Each loads only when a form shows such a question (the QuestionField's Suspense waits for it).
const SignatureQuestion = lazy(() => import('./SignatureQuestion'));
const BarcodeQuestion = lazy(() => import('./BarcodeQuestion'));

/** How the phone's keyboard opens for a typed question: a numeric keypad for numbers. */
const TYPED_INPUT: Partial<Record<string, { type: string; inputMode: 'numeric' | 'decimal' | 'tel' | 'email' | 'text'; placeholder?: string }>> = {
  [QuestionType.number]: { type: 'text', inputMode: 'numeric', placeholder: msgId('typed.wholeNumber') },
  [QuestionType.decimal]: { type: 'text', inputMode: 'decimal', placeholder: msgId('typed.decimal') },
  [QuestionType.date]: { type: 'date', inputMode: 'text' },
  [QuestionType.time]: { type: 'time', inputMode: 'text' },
  [QuestionType.phone]: { type: 'tel', inputMode: 'tel', placeholder: '080… or +234…' },
  [QuestionType.email]: { type: 'email', inputMode: 'email', placeholder: 'name@example.com' },
  [QuestionType.datetime]: { type: 'datetime-local', inputMode: 'text' },
};

type Props = QuestionFieldProps & { id: string; invalid: object; readOnly?: boolean };

/** A typed answer's input: the keyboard a phone opens for it (a numeric keypad for numbers), a date or time picker. */
export function TypedInput({ id, question, invalid, value: answer, onAnswer, photo, processing, onPhoto, readOnly = false }: Props) {
  const t = useT();
  const { type, text: label } = question;
  const value = typeof answer === 'string' ? answer : '';
  // A note is read-only text: its question text is all it shows, with no input and no answer.
  if (type === QuestionType.note) return null;
  if (type === QuestionType.signature) return <SignatureQuestion id={id} label={label} photo={photo} processing={processing} onPhoto={onPhoto} />;
  if (type === QuestionType.barcode) return <BarcodeQuestion id={id} value={value} invalid={invalid} onAnswer={onAnswer} />;
  if (type === QuestionType.range && question.range) return <RangeInput id={id} range={question.range} value={value} invalid={invalid} readOnly={readOnly} onAnswer={onAnswer} />;
  const typed = TYPED_INPUT[type] ?? { type: 'text', inputMode: 'text' as const };
  return <input id={id} type={typed.type} inputMode={typed.inputMode} className="q__control" {...invalid} readOnly={readOnly} maxLength={Limits.maxAnswerLength} value={value} autoComplete="off" placeholder={typed.placeholder && (typed.placeholder.startsWith('typed.') ? t(typed.placeholder) : typed.placeholder)} onChange={(e) => onAnswer(e.currentTarget.value)} />;
}

/** A slider from start to end by step, its value shown beside it; unanswered until moved (a slider always shows some value). */
function RangeInput({ id, range, value, invalid, readOnly, onAnswer }: { id: string; range: { start: number; end: number; step: number }; value: string; invalid: object; readOnly: boolean; onAnswer: (v: string) => void }) {
  const t = useT();
  const lo = Math.min(range.start, range.end);
  const hi = Math.max(range.start, range.end);
  return (
    <div className="q__range">
      <input id={id} type="range" className="q__slider" {...invalid} disabled={readOnly} min={lo} max={hi} step={range.step} value={value === '' ? range.start : value} onChange={(e) => onAnswer(e.currentTarget.value)} onClick={(e) => value === '' && onAnswer(e.currentTarget.value)} />
      <output htmlFor={id} className="q__range-value">{value === '' ? t('form.notSet') : value}</output>
    </div>
  );
}

export default TypedInput;
