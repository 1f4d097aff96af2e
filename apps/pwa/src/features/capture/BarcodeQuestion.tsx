import { useEffect, useRef, useState } from 'react';
import { msgId, t as translate, useT } from '../../lib/i18n';

interface Props {
  id: string;
  value: string;
  invalid: object;
  onAnswer: (value: string) => void;
}

interface DetectedBarcode { rawValue: string }
interface BarcodeDetectorLike { detect(source: CanvasImageSource): Promise<DetectedBarcode[]> }
type DetectorClass = new () => BarcodeDetectorLike;

/** The browser's BarcodeDetector, when it has one (Chrome on Android does; many browsers do not). */
const Detector = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;

/**
 * A barcode: always typed in, and scanned with the camera through BarcodeDetector where the
 * browser has it. Loaded only when a form has a barcode question.
 */
export function BarcodeQuestion({ id, value, invalid, onAnswer }: Props) {
  const t = useT();
  const [scanning, setScanning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (!scanning || !Detector) return;
    let stream: MediaStream | null = null;
    let alive = true;
    const detector = new Detector();
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
        if (!alive || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        while (alive) {
          const found = await detector.detect(video.current).catch(() => []);
          if (found[0]?.rawValue) {
            onAnswer(found[0].rawValue);
            setScanning(false);
            return;
          }
          await new Promise((r) => setTimeout(r, 250));
        }
      } catch {
        if (alive) setError(translate(msgId('barcode.noCamera')));
        setScanning(false);
      }
    })();
    return () => {
      alive = false;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [scanning, onAnswer]);

  return (
    <div className="capture">
      <input id={id} type="text" className="q__control" {...invalid} value={value} autoComplete="off" placeholder={t('barcode.type')} onChange={(e) => onAnswer(e.currentTarget.value)} />
      {Detector && (
        <>
          <div className={scanning ? 'camera' : 'camera camera--hidden'}>
            <video ref={video} className="camera__video" muted playsInline />
          </div>
          <button type="button" className="btn btn--ghost capture__btn" onClick={() => { setError(null); setScanning((s) => !s); }}>{scanning ? t('barcode.stop') : t('barcode.scan')}</button>
        </>
      )}
      {error && <p className="capture__error">{error}</p>}
    </div>
  );
}

export default BarcodeQuestion;
