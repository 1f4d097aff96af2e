import { useObjectUrl } from './use-object-url';
import { useT } from '../../lib/i18n';

/**
 * The photo (or drawn signature) kept for a question, with a way to take it back. A signature is a
 * transparent PNG with dark ink: it is shown on white, never on the photos' dark backdrop.
 */
export function PhotoPreview({ photo, label, onRemove, disabled, kind = 'photo' }: { photo: Blob; label: string; onRemove: () => void; disabled?: boolean; kind?: 'photo' | 'signature' }) {
  const t = useT();
  const url = useObjectUrl(photo);
  return (
    <figure className="photo">
      {url ? <img className={`photo__img photo__img--${kind}`} src={url} alt={kind === 'signature' ? t('photo.signatureFor', { question: label }) : t('photo.photoFor', { question: label })} /> : <span className={`photo__img photo__img--${kind}`} />}
      <figcaption className="photo__caption">
        <span>{`${Math.max(1, Math.round(photo.size / 1024))} KB`}</span>
        <button type="button" className="btn btn--ghost btn--sm" onClick={onRemove} disabled={disabled}>{kind === 'signature' ? t('photo.removeSignature') : t('photo.removePhoto')}</button>
      </figcaption>
    </figure>
  );
}
