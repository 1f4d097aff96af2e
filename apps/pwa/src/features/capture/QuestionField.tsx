import { isChoiceList, Limits, QuestionType, type Answer, type StoredQuestion } from '@survey-bird/contracts';
import { lazy, Suspense, useId } from 'react';
import { PLAIN_TYPES, toggleOption } from './form-logic';
import type { QuestionView } from './form-view';
import { loadPart, useT } from '../../lib/i18n';
import { ruleText } from './rule-text';
import './capture.css';

// Each kind of question downloads with the first survey that asks it (the service worker keeps them for offline use).
const DatasetCombobox = lazy(() => import('./DatasetCombobox'));
const LiveImageQuestion = lazy(() => import('./LiveImageQuestion'));
const ImageQuestion = lazy(() => import('./ImageQuestion'));
const LocationQuestion = lazy(() => import('./LocationQuestion'));
// The typed questions (numbers, dates, times, phone, e-mail, barcode, signature): one lazy input,
// which loads the signature pad and the barcode scanner only for such a question.
const TypedInput = lazy(() => import('./TypedInput'));
// Lines and areas, rankings, and recordings, videos and documents: each with the first form that asks
// one, and with their words (the catalog's `inputs` part, kept out of the form route's 170 KB).
const withInputWords = <M,>(module: Promise<M>): Promise<M> => Promise.all([module, loadPart('inputs')]).then(([m]) => m);
const GeoQuestion = lazy(() => withInputWords(import('./GeoQuestion')));
const RankQuestion = lazy(() => withInputWords(import('./RankQuestion')));
const MediaQuestion = lazy(() => withInputWords(import('./MediaQuestion')));


export interface QuestionFieldProps {
  question: StoredQuestion;
  /** What the form state decided for it: its label in the chosen language, required, read-only, filtered choices. */
  view?: QuestionView | undefined;
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
  const { question, view, number, value, photo, sentPhoto, processing, problem, onAnswer, onPhoto, searchDataset } = props;
  const t = useT();
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const hint = view?.hint;
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
  const { text, type } = question;
  const label = view?.label ?? text;
  const required = view?.required ?? question.compulsory;
  const readOnly = view?.readOnly ?? false;
  const choices = view?.choices ?? question.options.map((o) => ({ value: o, label: o }));
  const labelled = (!PLAIN_TYPES.includes(type) && type !== QuestionType.rank) || type === QuestionType.text || type === QuestionType.select || type === QuestionType.image || type === QuestionType.files;

  let input;
  switch (type) {
    case QuestionType.select:
      input = (
        <select id={id} className="q__control" {...invalid} value={str(value)} disabled={readOnly} onChange={(e) => onAnswer(e.currentTarget.value)}>
          <option value="" disabled>{t('form.chooseOption')}</option>
          {/* A chosen value the filter no longer offers stays visible until it is changed. */}
          {str(value) !== '' && !choices.some((c) => c.value === value) && <option value={str(value)}>{str(value)}</option>}
          {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
        </select>
      );
      break;
    case QuestionType.largeSelect:
      input = <DatasetCombobox id={id} labelId={labelId} value={typeof value === 'string' ? value : undefined} onAnswer={onAnswer} search={(query) => searchDataset(text, query)} />;
      break;
    case QuestionType.checkbox:
      input = (
        <div className="q__checks">
          {choices.map((c) => (
            <label key={c.value} className="q__check">
              <input type="checkbox" {...invalid} disabled={readOnly} checked={isChoiceList(value) && value.includes(c.value)} onChange={(e) => onAnswer(toggleOption(choices.map((x) => x.value), value, c.value, e.currentTarget.checked))} />
              <span>{c.label}</span>
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
          <p className="q__hint">{t('form.filesUnavailable')}</p>
        </>
      );
      break;
    case QuestionType.text: {
      const length = str(value).length;
      input = (
        <>
          <input id={id} type="text" className="q__control" {...invalid} readOnly={readOnly} maxLength={Limits.maxAnswerLength} value={str(value)} autoComplete="off" onChange={(e) => onAnswer(e.currentTarget.value)} />
          {length >= COUNTER_FROM && <p className="q__hint" aria-live="polite">{t('form.characters', { length, max: Limits.maxAnswerLength })}</p>}
        </>
      );
      break;
    }
    case QuestionType.geotrace:
    case QuestionType.geoshape:
      input = <GeoQuestion id={id} shape={type === QuestionType.geoshape} value={str(value)} readOnly={readOnly} onAnswer={onAnswer} />;
      break;
    case QuestionType.rank:
      input = <RankQuestion id={id} choices={choices} value={isChoiceList(value) ? value : undefined} readOnly={readOnly} onAnswer={onAnswer} />;
      break;
    case QuestionType.audio:
    case QuestionType.video:
    case QuestionType.file:
      input = <MediaQuestion id={id} type={type} label={text} file={photo} processing={processing} onFile={onPhoto} />;
      break;
    case QuestionType.acknowledge:
      input = (
        <label className="q__check">
          <input type="checkbox" {...invalid} disabled={readOnly} checked={value === 'OK'} onChange={(e) => onAnswer(e.currentTarget.checked ? 'OK' : '')} />
          <span>OK</span>
        </label>
      );
      break;
    default:
      input = <TypedInput {...props} id={id} invalid={invalid} readOnly={readOnly} />;
  }

  const title = (
    <>
      {type !== QuestionType.note && <><span className="q__number">{number}.</span> </>}{label}
      {required && (
        <>
          <span className="q__required" aria-hidden="true">*</span>
          <span className="visually-hidden"> {t('form.compulsoryMark')}</span>
        </>
      )}
    </>
  );
  const described = [hint ? hintId : null, problem ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={problem ? 'q q--invalid' : type === QuestionType.note ? 'q q--note' : 'q'} role="group" aria-labelledby={labelId} aria-describedby={described || undefined}>
      {labelled ? <label id={labelId} htmlFor={id} className="q__text">{title}</label> : <p id={labelId} className="q__text">{title}</p>}
      {hint && <p id={hintId} className="q__hint">{hint}</p>}
      {sentPhoto && !photo && (type === QuestionType.audio || type === QuestionType.video || type === QuestionType.file) && <p className="q__hint">{type === QuestionType.file ? t('form.sentFileStays') : type === QuestionType.audio ? t('form.sentRecordingStays') : t('form.sentVideoStays')}</p>}
      {sentPhoto && !photo && type !== QuestionType.audio && type !== QuestionType.video && type !== QuestionType.file && (
        <figure className="photo photo--sent">
          <img className="photo__img" src={sentPhoto} alt={t('form.photoSentFor', { question: text })} loading="lazy" />
          <figcaption className="photo__caption">{t('form.photoSentStays')}</figcaption>
        </figure>
      )}
      <Suspense fallback={<div className="q__loading">{t('common.loading')}</div>}>{input}</Suspense>
      {view?.guidanceHint && (
        <details className="q__guidance">
          <summary>{t('form.moreGuidance')}</summary>
          <p>{view.guidanceHint}</p>
        </details>
      )}
      {problem && <p id={errorId} className="q__error">{ruleText(problem)}</p>}
    </div>
  );
}
