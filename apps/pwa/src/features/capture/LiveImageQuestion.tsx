import { PHOTO_FILE_NAME, PHOTO_MIME } from '@survey-bird/contracts';
import { useEffect, useRef, useState } from 'react';
import { ImageQuestion } from './ImageQuestion';
import { PhotoPreview } from './PhotoPreview';
import { useT } from '../../lib/i18n';

interface Props {
  id: string;
  label: string;
  photo: Blob | undefined;
  processing: boolean;
  onPhoto: (photo: Blob | null) => void;
}

type Camera = 'closed' | 'opening' | 'open' | 'unavailable';

function stop(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** The video's current frame as photo.jpg (spec section 9). */
async function snapshot(video: HTMLVideoElement): Promise<File | null> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx || canvas.width === 0) return null;
  ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, PHOTO_MIME, 0.92));
  return blob ? new File([blob], PHOTO_FILE_NAME, { type: PHOTO_MIME }) : null;
}

/**
 * A live image answer: the rear camera (when the phone has one) in a preview, 'Take picture'
 * keeps the frame and closes the camera. When the camera cannot open, the failure is only logged
 * (spec section 8) and the phone's own camera picker takes over.
 */
export function LiveImageQuestion({ id, label, photo, processing, onPhoto }: Props) {
  const t = useT();
  const [camera, setCamera] = useState<Camera>('closed');
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);

  useEffect(() => () => stop(stream.current), []);

  const close = () => {
    stop(stream.current);
    stream.current = null;
    setCamera('closed');
  };

  const open = async () => {
    setCamera('opening');
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('getUserMedia is not available');
      const media = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 } }, audio: false });
      stream.current = media;
      const el = video.current;
      if (!el) return stop(media);
      el.srcObject = media;
      await el.play().catch(() => undefined);
      setCamera('open');
    } catch (err) {
      console.error('survey-bird: camera unavailable', err);
      close();
      setCamera('unavailable');
    }
  };

  const take = async () => {
    const el = video.current;
    const file = el ? await snapshot(el) : null;
    if (!file) return console.error('survey-bird: the camera gave no picture');
    close();
    onPhoto(file);
  };

  if (camera === 'unavailable') {
    return <ImageQuestion id={id} label={label} photo={photo} processing={processing} onPhoto={onPhoto} capture />;
  }
  const live = camera === 'open' || camera === 'opening';
  return (
    <div className="capture">
      {photo && !live && <PhotoPreview photo={photo} label={label} onRemove={() => onPhoto(null)} disabled={processing} />}
      <div className={`camera${live ? '' : ' camera--hidden'}`}>
        <video ref={video} className="camera__video" playsInline muted aria-label={t('camera.previewFor', { question: label })} />
        {camera === 'opening' && <span className="camera__status">{t('camera.opening')}</span>}
      </div>
      {live ? (
        <div className="capture__row">
          <button id={id} type="button" className="btn btn--primary capture__btn" onClick={() => void take()} disabled={camera !== 'open'}>{t('camera.take')}</button>
          <button type="button" className="btn btn--ghost capture__btn" onClick={close}>{t('common.cancel')}</button>
        </div>
      ) : (
        <button id={id} type="button" className="btn btn--ghost capture__btn" onClick={() => void open()} disabled={processing}>
          {processing ? t('photo.processing') : photo ? t('camera.retake') : t('camera.open')}
        </button>
      )}
    </div>
  );
}

export default LiveImageQuestion;
