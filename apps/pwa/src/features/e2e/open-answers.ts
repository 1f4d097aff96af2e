import type { Answers, EncryptedAnswers, ResponseRow } from '@survey-bird/contracts';
import type { OpenedKey } from './key-store';

/** What a row shows once its envelope is opened: the sealed answers over the server's (photo placeholders and references). */
export async function openAnswers(key: OpenedKey, stored: Answers, envelope: EncryptedAnswers | null | undefined): Promise<Answers> {
  if (!envelope || envelope.kid !== key.kid) return stored;
  const { decryptAnswers } = await import('@survey-bird/contracts/e2e');
  return { ...stored, ...(await decryptAnswers<Answers>(key.privateKey, key.kid, envelope)) };
}

/** The rows with their answers opened; a row sealed to another key (or damaged) keeps what the server sent. */
export function openRows(key: OpenedKey, rows: ResponseRow[]): Promise<ResponseRow[]> {
  return Promise.all(rows.map(async (row) => (row.encrypted ? { ...row, answers: await openAnswers(key, row.answers, row.encrypted).catch(() => row.answers) } : row)));
}
