import { PhotoPreview } from './PhotoPreview';

interface Props {
  id: string;
  label: string;
  photo: Blob | undefined;
  processing: boolean;
  onPhoto: (photo: Blob | null) => void;
  /** capture="environment" asks a phone to open its rear camera instead of the gallery. */
  capture?: boolean;
}

/** An image answer: a picture chosen from the phone (or, with capture, taken with its camera). */
export function ImageQuestion({ id, label, photo, processing, onPhoto, capture = false }: Props) {
  return (
    <div className="capture">
      {photo && <PhotoPreview photo={photo} label={label} onRemove={() => onPhoto(null)} disabled={processing} />}
      <label className={`file-pick${photo ? ' file-pick--again' : ''}`}>
        <input
          id={id}
          type="file"
          accept="image/*"
          capture={capture ? 'environment' : undefined}
          disabled={processing}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (file) onPhoto(file);
            e.currentTarget.value = '';
          }}
        />
        <span className="file-pick__text">{processing ? 'Processing photo…' : photo ? 'Choose another photo' : capture ? 'Take or choose a photo' : 'Choose a photo'}</span>
      </label>
    </div>
  );
}

export default ImageQuestion;
