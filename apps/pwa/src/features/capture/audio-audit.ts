import { AudioLimits, AudioStatus, audioAuditKey, audioAuditSelected, type ResponseAudio, type SurveyAudioAudit } from '@survey-bird/contracts';
import { confirmDialog } from '../../lib/dialog-store';

/**
 * The audio audit of one interview, loaded only on a survey with audits on (not in the form's
 * chunk). At the interview's start the phone applies the survey's rule to the response's clientId
 * (SHA-256 of `seed:clientId`, contracts audioAuditSelected; the server re-derives the same
 * decision), reads out the organization's consent text and records only after a yes: Opus in WebM
 * (Ogg where WebM is missing) at AudioLimits.bitsPerSecond, in 5 s slices, stopped at submit or
 * after AudioLimits.maxDurationMs. No permission, no MediaRecorder (older iOS): the response says
 * `unavailable` and the interview goes on.
 */
export interface AuditSession {
  /** Whether the microphone is on now (the form shows a small "recording" line). */
  readonly recording: boolean;
  /** Stops and answers what the response carries: the report, and the clip when one was recorded. */
  finish(): Promise<{ report: ResponseAudio; clip?: Blob }>;
  /** The form was left without submitting: the microphone is released, nothing is kept. */
  cancel(): void;
}

const hex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
const sha256 = async (data: BufferSource) => hex(await crypto.subtle.digest('SHA-256', data));

/** Whether this interview is recorded: the field user is always recorded, or the seed's draw says so. */
export async function isSelected(audit: SurveyAudioAudit, clientId: string): Promise<boolean> {
  if (audit.alwaysFieldUserIds.length > 0) return true;
  return audioAuditSelected(await sha256(new TextEncoder().encode(audioAuditKey(audit.seed, clientId))), audit.percent);
}

const fixed = (report: ResponseAudio): AuditSession => ({ recording: false, finish: () => Promise.resolve({ report }), cancel: () => undefined });

function recorderType(): string | null {
  if (typeof MediaRecorder === 'undefined') return null;
  for (const type of ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus']) if (MediaRecorder.isTypeSupported(type)) return type;
  return null;
}

/** Starts the interview's audit; null when it is not selected. */
export async function startAudit(audit: SurveyAudioAudit, clientId: string): Promise<AuditSession | null> {
  if (!(await isSelected(audit, clientId))) return null;
  const yes = await confirmDialog({ title: 'This interview may be recorded', body: audit.consentText, action: 'Respondent agrees: record', cancel: 'Respondent says no' });
  if (!yes) return fixed({ status: AudioStatus.declined, consent: false });
  const type = recorderType();
  if (!type || !navigator.mediaDevices?.getUserMedia) return fixed({ status: AudioStatus.unavailable, consent: true, reason: 'this browser cannot record audio' });
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
  } catch (err) {
    const name = (err as Error | undefined)?.name;
    return fixed({ status: AudioStatus.unavailable, consent: true, reason: name === 'NotAllowedError' ? 'microphone permission denied' : name === 'NotFoundError' ? 'no microphone' : 'the microphone could not be opened' });
  }
  const chunks: Blob[] = [];
  const recorder = new MediaRecorder(stream, { mimeType: type, audioBitsPerSecond: AudioLimits.bitsPerSecond });
  recorder.ondataavailable = (e) => {
    if (e.data.size > 0) chunks.push(e.data);
  };
  const stopped = new Promise<void>((resolve) => recorder.addEventListener('stop', () => resolve(), { once: true }));
  const startedAt = Date.now();
  let stoppedAt = 0;
  const release = () => stream.getTracks().forEach((t) => t.stop());
  const stop = () => {
    if (recorder.state === 'inactive') return;
    stoppedAt = Date.now();
    recorder.stop();
  };
  const limit = setTimeout(stop, AudioLimits.maxDurationMs);
  recorder.start(5000);
  return {
    get recording() {
      return recorder.state === 'recording';
    },
    async finish() {
      clearTimeout(limit);
      stop();
      await stopped;
      release();
      const clip = new Blob(chunks, { type: type.split(';')[0] });
      if (clip.size === 0) return { report: { status: AudioStatus.unavailable, consent: true, reason: 'nothing was recorded' } };
      if (clip.size > AudioLimits.maxBytes) return { report: { status: AudioStatus.unavailable, consent: true, reason: 'the recording was too long' } };
      const report: ResponseAudio = { status: AudioStatus.recorded, consent: true, size: clip.size, sha256: await sha256(await clip.arrayBuffer()), durationMs: (stoppedAt || Date.now()) - startedAt, mime: type };
      return { report, clip };
    },
    cancel() {
      clearTimeout(limit);
      stop();
      release();
    },
  };
}
