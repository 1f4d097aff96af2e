import { Msg, PhotoMsg, type AUDIO_AUDIT_KIND, type PhotoPlaceholder } from '@survey-bird/contracts';
import { type AccountKey, db, metaKey } from '../db';

/**
 * Resumable photo uploads: the client side of tus 1.0 (creation, HEAD, PATCH, and
 * termination for an upload it gives up), loaded by the sync engine only when a run has photos to
 * send (a dynamic import, never in the form's chunk). The URL of each unfinished upload lives in IndexedDB (`meta`, key `tus:<fingerprint>`),
 * so an upload cut by a lost link, a reload or an app restart goes on from the last byte the server
 * stored. The fingerprint names the account, response, question and photo: another photo never
 * resumes this one's upload. Not tus-js-client: its browser build is 16 KB gzipped, twice what the
 * whole app's budget had left (docs/decisions.md, "Files"); these four requests are what we use of it.
 *
 * No retries here: a failed attempt ends the sync run like any request, and the run's backoff
 * decides when the next one resumes.
 */
const TUS = { 'tus-resumable': '1.0.0' };
/** As for a photo sent whole (sync-engine.ts UPLOAD_TIMEOUT_MS): a stalled link must not hold the run's lease. */
const TIMEOUT_MS = 5 * 60_000;

/** Which photo an upload carries. */
export interface UploadTarget {
  endpoint: string;
  token: string;
  account: AccountKey;
  /** The response's clientId. */
  responseId: string;
  surveyId: string;
  organizationId: string;
  question: string;
  placeholder: PhotoPlaceholder;
  /** 'audio_audit': the response's audit clip (no question), else a photo. */
  kind?: typeof AUDIO_AUDIT_KIND;
}

export interface ResumableInput extends UploadTarget {
  photo: Blob;
  onProgress?: (sent: number, total: number) => void;
}

/** How an upload ended: the photo stored (its reference when the reply named it), or the server's status (0: no answer). */
export type ResumableResult = { kind: 'ok'; reference?: string } | { kind: 'error'; status: number; msg: string; retryAfter: string | null };

/** An upload the server holds: where its bytes go, and from which one. */
export interface OpenUpload {
  kind: 'open';
  key: string;
  url: string;
  offset: number;
}

interface Reply {
  status: number;
  header(name: string): string | null;
  text: string;
}

/**
 * Finds the photo's upload on the server (HEAD of its stored URL) or creates one. Apart from the
 * bytes, so the engine can open the next photo's upload while this one's bytes are on the link.
 */
export async function openUpload(input: UploadTarget): Promise<OpenUpload | ResumableResult> {
  const key = keyOf(input);
  const auth = { authorization: `Bearer ${input.token}`, ...TUS };
  const url = (await db.meta.get(key))?.value as string | undefined;
  if (url) {
    const head = await send('HEAD', url, auth);
    if (head.status === 200) return { kind: 'open', key, url, offset: Number(head.header('upload-offset') ?? 0) };
    if (head.status !== 404 && head.status !== 410 && head.status !== 403) return failure(head);
    await db.meta.delete(key);
  }
  const fields: Record<string, string> = input.kind ? { kind: input.kind } : { question: input.question };
  const metadata = Object.entries({ ...fields, survey_id: input.surveyId, organization_id: input.organizationId, clientId: input.responseId })
    .map(([k, v]) => `${k} ${base64(v)}`)
    .join(',');
  const created = await send('POST', input.endpoint, { ...auth, 'upload-length': String(input.placeholder.size), 'upload-metadata': metadata });
  // The reply to the last byte was lost before: the server has this photo already.
  if (created.status === 409 && (input.kind !== undefined || msgOf(created) === PhotoMsg.alreadyAttached)) return { kind: 'ok' };
  const location = created.header('location');
  if (created.status !== 201 || !location) return failure(created);
  const opened: OpenUpload = { kind: 'open', key, url: new URL(location, input.endpoint).href, offset: 0 };
  await db.meta.put({ key, value: opened.url });
  return opened;
}

/** Sends the photo's bytes the server does not hold yet; `opened` is openUpload's answer when the engine asked ahead. */
export async function sendResumable(input: ResumableInput, opened?: Promise<OpenUpload | ResumableResult>): Promise<ResumableResult> {
  const upload = await (opened ?? openUpload(input));
  if (upload.kind !== 'open') return upload;
  const { key, url, offset } = upload;
  const size = input.photo.size;
  input.onProgress?.(offset, size);
  const patch = await send('PATCH', url, { authorization: `Bearer ${input.token}`, ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, input.photo.slice(offset), (sent) => input.onProgress?.(offset + sent, size));
  if (patch.status === 204 || patch.status === 200) {
    await db.meta.delete(key);
    return { kind: 'ok', reference: patch.header('photo-reference') ?? undefined };
  }
  // 409: the server holds another offset than we sent (an earlier attempt went further): the next HEAD says which.
  if (patch.status === 409) return { kind: 'error', status: 0, msg: Msg.uploadIncomplete, retryAfter: null };
  // Refused: the next attempt starts a new upload. A refused finished upload is gone on the server
  // already; any other is cancelled, so its bytes do not count against us until it expires.
  if (patch.status >= 400 && patch.status < 500 && patch.status !== 401 && patch.status !== 408 && patch.status !== 429) {
    if (patch.status !== 404 && patch.status !== 410) await send('DELETE', url, { authorization: `Bearer ${input.token}`, ...TUS });
    await db.meta.delete(key);
  }
  return failure(patch);
}

/**
 * Gives up the photo's upload (the photo can no longer be read, so it will never be finished):
 * the server is asked to remove it (tus termination) and the phone forgets its URL. `opened` is
 * openUpload's answer when the engine asked ahead. Never fails: unanswered, the server's expiry
 * removes it all the same.
 */
export async function cancelUpload(input: UploadTarget, opened?: Promise<OpenUpload | ResumableResult>): Promise<void> {
  const ahead = await opened?.catch(() => undefined);
  const key = keyOf(input);
  const url = ahead?.kind === 'open' ? ahead.url : ((await db.meta.get(key))?.value as string | undefined);
  if (!url) return;
  await send('DELETE', url, { authorization: `Bearer ${input.token}`, ...TUS });
  await db.meta.delete(key);
}

/** The photo's upload in IndexedDB: account, response, question and the photo's own id. */
const keyOf = (input: UploadTarget) => metaKey.tusUpload(input.account, input.responseId, input.question, input.placeholder.clientId);

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function msgOf(reply: Reply): string {
  try {
    const msg = (JSON.parse(reply.text) as { msg?: unknown }).msg;
    return typeof msg === 'string' && msg !== '' ? msg : Msg.unexpectedError;
  } catch {
    return Msg.unexpectedError;
  }
}

const failure = (reply: Reply): ResumableResult => ({ kind: 'error', status: reply.status, msg: msgOf(reply), retryAfter: reply.header('retry-after') });

/** XMLHttpRequest where there is one (upload progress for the sync strip); fetch elsewhere. Status 0: no answer. */
function send(method: string, url: string, headers: Record<string, string>, body?: Blob, onProgress?: (sent: number) => void): Promise<Reply> {
  if (typeof XMLHttpRequest === 'undefined') {
    return fetch(url, { method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) }).then(
      async (res) => ({ status: res.status, header: (name) => res.headers.get(name), text: await res.text().catch(() => '') }),
      () => ({ status: 0, header: () => null, text: '' }),
    );
  }
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.timeout = TIMEOUT_MS;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => resolve({ status: xhr.status, header: (name) => xhr.getResponseHeader(name), text: xhr.responseText });
    xhr.onerror = xhr.ontimeout = xhr.onabort = () => resolve({ status: 0, header: () => null, text: '' });
    xhr.send(body ?? null);
  });
}
