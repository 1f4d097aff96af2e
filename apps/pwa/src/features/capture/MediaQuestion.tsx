import { QuestionType, UploadAccept, uploadCap } from '@survey-bird/contracts';
import { lazy, Suspense, useState } from 'react';
import { formatSize } from './media-size';
import { useObjectUrl } from './use-object-url';
import { t, useT } from '../../lib/i18n';
import './more-types.css';

// The recorder (MediaRecorder and its timer) loads only when the person chooses to record.
const AudioRecorder = lazy(() => import('./AudioRecorder'));

interface Props {
  id: string;
  type: string;
  label: string;
  file: Blob | undefined;
  processing: boolean;
  onFile: (file: Blob | null) => void;
}

/** The kind of file in the catalog's `{kind, select, ...}` messages. */
const KIND: Record<string, string> = { [QuestionType.audio]: 'audio', [QuestionType.video]: 'video', [QuestionType.file]: 'file' };

/**
 * A recording, a video or a document answer: picked from the phone (a phone offers its recorder or
 * camera in the picker), or for sound recorded here. It is kept as it is (no shrinking) and goes
 * through the photos' store, outbox and upload path; the type's cap is said before anything is kept.
 */
export function MediaQuestion({ id, type, label, file, processing, onFile }: Props) {
  useT();
  const [recording, setRecording] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);
  // The server refuses a larger file (413): said when it is picked, not after a day offline.
  const keep = (picked: Blob) => {
    const over = picked.size > uploadCap(type);
    setTooLarge(over);
    if (!over) onFile(picked);
  };
  const kind = KIND[type] ?? 'file';
  const url = useObjectUrl(file);
  return (
    <div className="capture media">
      {file && (
        <figure className="media__kept">
          {url && type === QuestionType.audio && <audio className="media__player" controls src={url} aria-label={t('media.recordingFor', { label })} />}
          {url && type === QuestionType.video && <video className="media__player" controls src={url} aria-label={t('media.videoFor', { label })} />}
          <figcaption className="photo__caption">
            <span>{file instanceof File && file.name ? `${file.name}, ` : ''}{formatSize(file.size)}</span>
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => onFile(null)} disabled={processing}>{t('media.remove', { kind })}</button>
          </figcaption>
        </figure>
      )}
      {recording ? (
        <Suspense fallback={<div className="q__loading">{t('media.loading')}</div>}>
          <AudioRecorder label={label} onDone={(clip) => { setRecording(false); if (clip) keep(clip); }} />
        </Suspense>
      ) : (
        <div className="capture__row">
          {type === QuestionType.audio && (
            <button type="button" className="btn btn--primary capture__btn" disabled={processing} onClick={() => setRecording(true)}>{file ? t('media.recordAgain') : t('media.record')}</button>
          )}
          <label className={`file-pick${file ? ' file-pick--again' : ''}`}>
            <input
              id={id}
              type="file"
              accept={UploadAccept[type]}
              disabled={processing}
              onChange={(e) => {
                const picked = e.currentTarget.files?.[0];
                if (picked) keep(picked);
                e.currentTarget.value = '';
              }}
            />
            <span className="file-pick__text">{processing ? t('media.keeping') : (file ? t('media.chooseAnother', { kind }) : t('media.choose', { kind }))}</span>
          </label>
        </div>
      )}
      <p className={tooLarge ? 'capture__error' : 'q__hint'} role={tooLarge ? 'alert' : undefined}>{tooLarge ? t('media.tooLarge', { kind, size: formatSize(uploadCap(type)) }) : t('media.upTo', { size: formatSize(uploadCap(type)) })}</p>
    </div>
  );
}

export default MediaQuestion;
