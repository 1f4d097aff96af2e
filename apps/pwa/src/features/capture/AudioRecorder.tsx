import { AudioLimits } from '@survey-bird/contracts';
import { useEffect, useRef, useState } from 'react';
import { t, useT } from '../../lib/i18n';

/** A recording stops by itself after this long: at 24 kbit/s, 30 minutes is about 5.4 MB, well under the cap. */
const MAX_MS = 30 * 60_000;

/** What this browser records in, in the order the server and most players take best (Safari: MP4). */
function recorderType(): string | null {
  if (typeof MediaRecorder === 'undefined') return null;
  for (const type of ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4']) if (MediaRecorder.isTypeSupported(type)) return type;
  return null;
}

type State = { kind: 'starting' } | { kind: 'recording'; since: number } | { kind: 'failed'; text: string };

const clock = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

/**
 * Records sound with the phone's microphone (MediaRecorder, Opus at the audio audit's bitrate)
 * until Stop; `onDone` gets the clip, or null when cancelled or impossible. Loaded only when a
 * person chooses to record.
 */
export function AudioRecorder({ label, onDone }: { label: string; onDone: (clip: Blob | null) => void }) {
  useT();
  const [state, setState] = useState<State>({ kind: 'starting' });
  const [now, setNow] = useState(Date.now());
  const recorder = useRef<MediaRecorder | null>(null);
  const keep = useRef(true);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let limit: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const type = recorderType();
    if (!type || !navigator.mediaDevices?.getUserMedia) {
      setState({ kind: 'failed', text: t('recorder.unsupported') });
      return;
    }
    void navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } }).then(
      (s) => {
        if (cancelled) return s.getTracks().forEach((t) => t.stop());
        stream = s;
        const chunks: Blob[] = [];
        const r = new MediaRecorder(s, { mimeType: type, audioBitsPerSecond: AudioLimits.bitsPerSecond });
        recorder.current = r;
        r.ondataavailable = (e) => { if (e.data.size > 0) chunks.push(e.data); };
        r.onstop = () => {
          s.getTracks().forEach((t) => t.stop());
          onDone(keep.current && chunks.length > 0 ? new Blob(chunks, { type: type.split(';')[0] }) : null);
        };
        r.start(1000);
        limit = setTimeout(() => r.state !== 'inactive' && r.stop(), MAX_MS);
        setState({ kind: 'recording', since: Date.now() });
      },
      (err: unknown) => {
        const name = (err as Error | undefined)?.name;
        setState({ kind: 'failed', text: name === 'NotAllowedError' ? t('recorder.refused') : t('recorder.failed') });
      },
    );
    const tick = setInterval(() => setNow(Date.now()), 500);
    return () => {
      cancelled = true;
      clearInterval(tick);
      clearTimeout(limit);
      keep.current = false;
      if (recorder.current && recorder.current.state !== 'inactive') recorder.current.stop();
      stream?.getTracks().forEach((t) => t.stop());
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one recording per mount
  }, []);

  const stop = (kept: boolean) => {
    keep.current = kept;
    const r = recorder.current;
    if (r && r.state !== 'inactive') r.stop();
    else onDone(null);
  };

  if (state.kind === 'failed') {
    return (
      <div className="capture">
        <p className="capture__error" role="alert">{state.text}</p>
        <button type="button" className="btn btn--ghost capture__btn" onClick={() => onDone(null)}>{t('recorder.back')}</button>
      </div>
    );
  }
  return (
    <div className="capture recorder" role="group" aria-label={t('media.recordingFor', { label })}>
      <p className="recorder__time" aria-live="polite"><span className="recorder__dot" aria-hidden="true" />{state.kind === 'recording' ? t('recorder.recording', { time: clock(now - state.since) }) : t('recorder.starting')}</p>
      <div className="capture__row">
        <button type="button" className="btn btn--ghost capture__btn" onClick={() => stop(false)}>{t('recorder.cancel')}</button>
        <button type="button" className="btn btn--primary capture__btn" disabled={state.kind !== 'recording'} onClick={() => stop(true)}>{t('recorder.stop')}</button>
      </div>
    </div>
  );
}

export default AudioRecorder;
