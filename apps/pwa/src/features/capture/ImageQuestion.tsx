import { PhotoPreview } from './PhotoPreview';
import { useT } from '../../lib/i18n';

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
  const t = useT();
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
        <span className="file-pick__text">{processing ? t('photo.processing') : photo ? t('photo.chooseAnother') : capture ? t('photo.takeOrChoose') : t('photo.choose')}</span>
      </label>
    </div>
  );
}

export default ImageQuestion;
