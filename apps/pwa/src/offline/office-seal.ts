import type { EncryptedAnswers } from '@survey-bird/contracts';
import { db, type OutboxRecord } from './db';
import { withPhotoRefs } from './photo-refs';

/**
 * End-to-end encryption on the phone: a record queued for an encrypted survey leaves the phone
 * with `answers: {}` and its answers (photo references included) sealed to the survey's public
 * key. The envelope is made once, before the first send, and kept on the record: a retry sends the
 * very same bytes, so the server's idempotency (a replay is 200, another body is 409) holds. It is
 * made again only when the photo references it sealed have changed (a fix uploads photos first)
 * or the answers were corrected (updateAnswers drops it).
 *
 * The cryptography (packages/contracts/src/e2e.ts, RSA-OAEP 3072 + AES-256-GCM) is imported on first use, so
 * only a phone with an encrypted survey downloads it. Answers stay sealed at rest under the
 * account's own key (vault.ts); the envelope is readable by nobody but the key file's holder.
 */
export async function sealForOffice(records: OutboxRecord[]): Promise<OutboxRecord[]> {
  if (!records.some((r) => r.encryptTo)) return records;
  const { encryptAnswers } = await import('@survey-bird/contracts/e2e');
  return Promise.all(records.map(async (record) => {
    if (!record.encryptTo) return record;
    const refs = JSON.stringify(record.photoRefs);
    if (record.officeSealed?.refs === refs) return record;
    const envelope: EncryptedAnswers = await encryptAnswers(record.encryptTo, withPhotoRefs(record.answers, record.photoRefs));
    const officeSealed = { refs, envelope };
    await db.outbox.update(record.id, { officeSealed });
    return { ...record, officeSealed };
  }));
}

/** The answers as a request carries them: sealed when the record has an envelope. */
export function answersToSend(record: OutboxRecord): { answers: OutboxRecord['answers']; encrypted?: EncryptedAnswers } {
  if (record.encryptTo && record.officeSealed) return { answers: {}, encrypted: record.officeSealed.envelope };
  if (record.encryptTo) throw new Error('An encrypted survey\'s response reached the send before its answers were sealed');
  return { answers: withPhotoRefs(record.answers, record.photoRefs) };
}
