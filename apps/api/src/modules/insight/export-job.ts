import type { Writable } from 'node:stream';
import type { StoredQuestion } from '@survey-bird/contracts';
import type { Db, DbOptions } from '../../db/database.js';
import { InsightRepository, type Scope } from './repository.js';
import { writeResponsesWorkbook } from './workbook.js';

/** Everything an export needs, plain data so it can cross into a worker thread. */
export interface ExportJob {
  db: DbOptions;
  scope: Scope;
  search: string;
  questions: StoredQuestion[];
  publicUrl: string;
}

const BATCH = 1000;

/** Writes the workbook for `job` into `out`, reading responses in keyset batches from `db`. */
export async function startExportJob(db: Db, job: ExportJob, out: Writable): Promise<void> {
  const repo = new InsightRepository(db);
  await writeResponsesWorkbook(out, { questions: job.questions, publicUrl: job.publicUrl, rows: repo.allResponses(job.scope, job.search, BATCH) });
}

