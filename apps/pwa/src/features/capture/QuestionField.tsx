import { Limits, QuestionType, type Answer, type StoredQuestion } from '@survey-bird/contracts';
import { lazy, Suspense, useId } from 'react';
import { PLAIN_TYPES, toggleOption } from '../field-user/form-logic';
import './capture.css';

// Each kind of question downloads with the first survey that asks it (the service worker keeps them for offline use).
const DatasetCombobox = lazy(() => import('./DatasetCombobox'));
const LiveImageQuestion = lazy(() => import('./LiveImageQuestion'));
const ImageQuestion = lazy(() => import('./ImageQuestion'));
const LocationQuestion = lazy(() => import('./LocationQuestion'));
// The typed questions (numbers, dates, times, phone, e-mail, barcode, signature): one lazy input,
// which loads the signature pad and the barcode scanner only for such a question.
const TypedInput = lazy(() => import('./TypedInput'));


export interface QuestionFieldProps {
  question: StoredQuestion;
  number: number;
  value: Answer | undefined;
  photo: Blob | undefined;
  /** The server's URL of the photo already sent for this question (a Fix): shown until another is chosen. */
  sentPhoto?: string | undefined;
  processing: boolean;
  /** What to fix, shown in red under the question (missing compulsory answer, a limit broken). */
  problem?: string | undefined;
  onAnswer: (value: Answer) => void;
  onPhoto: (photo: Blob | null) => void;
  /** Options of a large select matching a query (works offline from the phone's copy). */
  searchDataset: (question: string, query: string) => Promise<string[]>;
}

const str = (v: Answer | undefined): string => (typeof v === 'string' ? v : '');


/** The counter shows from here on, so the limit never comes as a surprise. */
const COUNTER_FROM = Math.floor(Limits.maxAnswerLength * 0.9);

/** One question of the form (spec section 8, screen 8): its text, a red asterisk when compulsory, and its input. */
export function QuestionField(props: QuestionFieldProps) {
  const { question, number, value, photo, sentPhoto, processing, problem, onAnswer, onPhoto, searchDataset } = props;
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
  const { text, type } = question;
  const labelled = !PLAIN_TYPES.includes(type) || type === QuestionType.text || type === QuestionType.select || type === QuestionType.image || type === QuestionType.files;

  let input;
  switch (type) {
    case QuestionType.select:
      input = (
        <select id={id} className="q__control" {...invalid} value={str(value)} onChange={(e) => onAnswer(e.currentTarget.value)}>
          <option value="" disabled>Choose an option</option>
          {question.options.map((o) => <option key={o} value={o}>{o}</option>)}
        </select>
      );
      break;
    case QuestionType.largeSelect:
      input = <DatasetCombobox id={id} labelId={labelId} value={typeof value === 'string' ? value : undefined} onAnswer={onAnswer} search={(query) => searchDataset(text, query)} />;
      break;
    case QuestionType.checkbox:
      input = (
        <div className="q__checks">
          {question.options.map((o) => (
            <label key={o} className="q__check">
              <input type="checkbox" {...invalid} checked={Array.isArray(value) && value.includes(o)} onChange={(e) => onAnswer(toggleOption(question.options, value, o, e.currentTarget.checked))} />
              <span>{o}</span>
            </label>
          ))}
        </div>
      );
      break;
    case QuestionType.image:
      input = <ImageQuestion id={id} label={text} photo={photo} processing={processing} onPhoto={onPhoto} />;
      break;
    case QuestionType.liveImages:
      input = <LiveImageQuestion id={id} label={text} photo={photo} processing={processing} onPhoto={onPhoto} />;
      break;
    case QuestionType.liveLocation:
      input = <LocationQuestion id={id} value={typeof value === 'string' ? value : undefined} onAnswer={onAnswer} />;
      break;
    case QuestionType.files:
      input = (
        <>
          <input id={id} type="file" className="q__control" disabled />
          <p className="q__hint">File uploads are not available yet.</p>
        </>
      );
      break;
    case QuestionType.text: {
      const length = str(value).length;
      input = (
        <>
          <input id={id} type="text" className="q__control" {...invalid} maxLength={Limits.maxAnswerLength} value={str(value)} autoComplete="off" onChange={(e) => onAnswer(e.currentTarget.value)} />
          {length >= COUNTER_FROM && <p className="q__hint" aria-live="polite">{length} / {Limits.maxAnswerLength} characters</p>}
        </>
      );
      break;
    }
    default:
      input = <TypedInput {...props} id={id} invalid={invalid} />;
  }

  const title = (
    <>
      <span className="q__number">{number}.</span> {text}
      {question.compulsory && (
        <>
          <span className="q__required" aria-hidden="true">*</span>
          <span className="visually-hidden"> (compulsory)</span>
        </>
      )}
    </>
  );
  return (
    <div className={problem ? 'q q--invalid' : 'q'} role="group" aria-labelledby={labelId} aria-describedby={problem ? errorId : undefined}>
      {labelled ? <label id={labelId} htmlFor={id} className="q__text">{title}</label> : <p id={labelId} className="q__text">{title}</p>}
      {sentPhoto && !photo && (
        <figure className="photo photo--sent">
          <img className="photo__img" src={sentPhoto} alt={`Photo sent for ${text}`} loading="lazy" />
          <figcaption className="photo__caption">The photo you sent stays; choose another only to replace it.</figcaption>
        </figure>
      )}
      <Suspense fallback={<div className="q__loading">Loading…</div>}>{input}</Suspense>
      {problem && <p id={errorId} className="q__error">{problem}</p>}
    </div>
  );
}
