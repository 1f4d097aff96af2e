import { AUDIO_AUDIT_KIND } from '@survey-bird/contracts';
import table from '../../api/route-table';
import { rejectToken } from '../accounts';
import { accountKey, audioOwner, db, type OutboxRecord } from '../db';
import { readPhoto } from '../photo-store';
import { classify, NO_ANSWER } from '../retry-policy';
import type { Ctx } from '../sync-run';

/**
 * Audio audit clips: after every response and photo of the run, each synced response's clip goes
 * through the resumable path (sync-tus.ts, `kind: audio_audit`), so a clip never holds a response
 * back and a cut upload resumes from the server's offset. The service worker has no tus client:
 * clips wait for the page. Sent or refused, the clip's bytes leave the phone (the field user never
 * plays it back). Answers false when the run must stop.
 */
export async function sendPendingAudio(ctx: Ctx): Promise<boolean> {
  if (!ctx.resumable) return true;
  const synced = await db.outbox.where('[account+status]').equals([accountKey(ctx.account), 'synced']).toArray();
  const records = synced.filter((r) => r.audioPending && r.audio?.sha256 !== undefined).sort((a, b) => a.createdAt - b.createdAt);
  if (records.length === 0) return true;
  const tus = await ctx.resumable();
  const origin = ctx.baseUrl || globalThis.location?.origin || '';
  for (const r of records) {
    if (!(await ctx.lock.renew(ctx.now()))) return false;
    const clip = await readPhoto(audioOwner(r.id), '').catch(() => undefined);
    if (!clip) {
      await settle(r, { status: NO_ANSWER, msg: 'The recording could not be read on this phone' });
      continue;
    }
    const result = await tus.sendResumable({
      endpoint: origin + table.resumableCreate.path, token: ctx.token, account: ctx.account, responseId: r.id, surveyId: r.surveyId, organizationId: r.organizationId,
      question: '', kind: AUDIO_AUDIT_KIND, placeholder: { question: '', clientId: 'audio', size: clip.size, sha256: r.audio!.sha256! }, photo: clip,
    });
    if (result.kind === 'ok') {
      await settle(r);
      continue;
    }
    const verdict = result.status === 0 ? { kind: 'retry' as const } : classify(result.status, result.msg, result.retryAfter, ctx.now());
    if (verdict.kind === 'auth') {
      ctx.summary.authRequired = true;
      await rejectToken(ctx.account, ctx.token);
      return false;
    }
    if (verdict.kind === 'retry') return false;
    await settle(r, { status: result.status, msg: result.msg });
  }
  return true;
}

/** The clip is done with: stored by the server, or refused for good (noted on the record). Its bytes go either way. */
async function settle(r: Pick<OutboxRecord, 'id'>, refused?: { status: number; msg: string }): Promise<void> {
  await db.transaction('rw', db.outbox, db.photos, async () => {
    const record = await db.outbox.get(r.id);
    if (!record) return;
    const { audioPending: _pending, ...rest } = record;
    await db.outbox.put({ ...rest, ...(refused ? { audioError: refused } : {}), updatedAt: Date.now() });
    await db.photos.where('owner').equals(audioOwner(r.id)).delete();
  });
}
