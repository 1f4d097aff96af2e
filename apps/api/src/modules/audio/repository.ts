import type { Kysely } from 'kysely';
import type { ResponseAudioAudit } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import { parseMeta } from '../flags/meta.js';

/** `audio_audits` and the response and file rows an audit clip is checked against. */
export class AudioRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The caller's response of that clientId, with the clip stored for it so far. */
  responseOf(userId: string, surveyId: string, clientId: string) {
    return this.db.selectFrom('responses as r').leftJoin('audio_audits as aa', 'aa.response_id', 'r.id')
      .select(['r.id', 'r.audio', 'r.meta', 'aa.file_id'])
      .where('r.survey_id', '=', surveyId).where('r.client_id', '=', clientId).where('r.user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Attaches the stored clip; a clip already attached stays (the first upload wins, as for photos). */
  async attach(responseId: string, surveyId: string, fileId: string, now: number): Promise<void> {
    await this.db.insertInto('audio_audits').values({ response_id: responseId, survey_id: surveyId, file_id: fileId, uploaded_at: now, verdict: null, note: null, reviewed_by: null, reviewed_at: null })
      .onConflict((oc) => oc.column('response_id').doUpdateSet({ file_id: fileId, uploaded_at: now }).where('audio_audits.file_id', 'is', null))
      .execute();
  }

  audit(responseId: string) {
    return this.db.selectFrom('audio_audits').selectAll().where('response_id', '=', responseId).executeTakeFirst();
  }

  clipFile(responseId: string) {
    return this.db.selectFrom('audio_audits as aa').innerJoin('files as f', 'f.id', 'aa.file_id')
      .select(['f.id', 'f.path', 'f.mime', 'f.size', 'f.store']).where('aa.response_id', '=', responseId).executeTakeFirst();
  }

  async setVerdict(responseId: string, verdict: string, note: string | null, by: string, now: number): Promise<void> {
    await this.db.updateTable('audio_audits').set({ verdict, note, reviewed_by: by, reviewed_at: now }).where('response_id', '=', responseId).execute();
  }
}

/** A response's audio audit as the detail view shows it; null when the interview had none. */
export async function audioAuditOf(db: Kysely<Database>, response: { id: string; audio?: string | null; meta: string | null }): Promise<ResponseAudioAudit | null> {
  if (!response.audio) return null;
  const audio = parseMeta(response.meta).audio;
  const row = await new AudioRepository(db).audit(response.id);
  return {
    status: response.audio,
    consent: audio?.consent ?? null,
    reason: audio?.reason ?? null,
    durationMs: audio?.durationMs ?? null,
    size: audio?.size ?? null,
    uploaded: Boolean(row?.file_id),
    verdict: (row?.verdict ?? null) as ResponseAudioAudit['verdict'],
    note: row?.note ?? null,
    reviewedBy: row?.reviewed_by ?? null,
    reviewedAt: row?.reviewed_at === null || row?.reviewed_at === undefined ? null : new Date(Number(row.reviewed_at)).toISOString(),
  };
}
