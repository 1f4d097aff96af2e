import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * A large select's answers against the option list of the version they were filled against: the
 * list kept in dataset_option_history for the first version range that covers it, else the current
 * one in dataset_options. Rare next to ingest (only answered large selects), so plain Kysely.
 */
export class DatasetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Those of `values` that are options of `question` as version `version` of the survey listed them. */
  async present(surveyId: string, question: string, version: number, values: string[]): Promise<Set<string>> {
    const archived = await this.db.selectFrom('dataset_option_history')
      .select((eb) => eb.fn.min<number>('until_version').as('until'))
      .where('survey_id', '=', surveyId).where('question', '=', question).where('until_version', '>=', version)
      .executeTakeFirst();
    const until = archived?.until ?? null;
    const rows = until === null
      // value_lower is what dataset_options is indexed on; the exact value is compared below.
      ? await this.db.selectFrom('dataset_options').select('value')
        .where('survey_id', '=', surveyId).where('question', '=', question).where('value_lower', 'in', values.map((v) => v.toLowerCase())).execute()
      : await this.db.selectFrom('dataset_option_history').select('value')
        .where('survey_id', '=', surveyId).where('question', '=', question).where('until_version', '=', Number(until)).where('value', 'in', values).execute();
    const wanted = new Set(values);
    return new Set(rows.map((r) => r.value).filter((v) => wanted.has(v)));
  }
}
