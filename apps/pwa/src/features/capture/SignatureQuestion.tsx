import { useEffect, useRef, useState } from 'react';
import { PhotoPreview } from './PhotoPreview';
import { useT } from '../../lib/i18n';

interface Props {
  id: string;
  label: string;
  photo: Blob | undefined;
  processing: boolean;
  onPhoto: (photo: Blob | null) => void;
}

/**
 * A signature drawn with a finger (or a mouse) on a canvas, kept as a PNG: it travels the photo
 * store, outbox and upload path like a photo. Loaded only when a form has a signature question.
 */
export function SignatureQuestion({ id, label, photo, processing, onPhoto }: Props) {
  const t = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    // Draw at the screen's pixel density, so the line is sharp.
    const ratio = window.devicePixelRatio || 1;
    c.width = Math.round(c.clientWidth * ratio);
    c.height = Math.round(c.clientHeight * ratio);
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#0f172a';
  }, [photo]);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top] as const;
  };

  if (photo) return <div className="capture"><PhotoPreview kind="signature" photo={photo} label={label} onRemove={() => { setDrawn(false); onPhoto(null); }} disabled={processing} /></div>;

  return (
    <div className="capture">
      <canvas
        id={id}
        ref={canvas}
        className="signature__pad"
        aria-label={`${label}: sign here with your finger`}
        onPointerDown={(e) => {
          const ctx = e.currentTarget.getContext('2d');
          if (!ctx) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          drawing.current = true;
          const [x, y] = point(e);
          ctx.beginPath();
          ctx.moveTo(x, y);
          ctx.lineTo(x + 0.1, y + 0.1);
          ctx.stroke();
          setDrawn(true);
        }}
        onPointerMove={(e) => {
          if (!drawing.current) return;
          const ctx = e.currentTarget.getContext('2d');
          const [x, y] = point(e);
          ctx?.lineTo(x, y);
          ctx?.stroke();
        }}
        onPointerUp={() => { drawing.current = false; }}
        onPointerCancel={() => { drawing.current = false; }}
      />
      <div className="capture__row">
        <button type="button" className="btn btn--ghost capture__btn" disabled={!drawn || processing} onClick={() => {
          const c = canvas.current;
          c?.getContext('2d')?.clearRect(0, 0, c.width, c.height);
          setDrawn(false);
        }}>{t('signature.clear')}</button>
        <button type="button" className="btn btn--primary capture__btn" disabled={!drawn || processing} onClick={() => {
          canvas.current?.toBlob((blob) => blob && onPhoto(blob), 'image/png');
        }}>{processing ? t('signature.saving') : t('signature.keep')}</button>
      </div>
    </div>
  );
}

export default SignatureQuestion;
