import { useObjectUrl } from './use-object-url';

/** The photo kept for a question, with a way to take it back. */
export function PhotoPreview({ photo, label, onRemove, disabled }: { photo: Blob; label: string; onRemove: () => void; disabled?: boolean }) {
  const url = useObjectUrl(photo);
  return (
    <figure className="photo">
      {url ? <img className="photo__img" src={url} alt={`Photo for ${label}`} /> : <span className="photo__img" />}
      <figcaption className="photo__caption">
        <span>{`${Math.max(1, Math.round(photo.size / 1024))} KB`}</span>
        <button type="button" className="btn btn--ghost btn--sm" onClick={onRemove} disabled={disabled}>Remove photo</button>
      </figcaption>
    </figure>
  );
}
