import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The setting's value; `candidate` is stored first if the setting has none (the first writer wins). */
  async getOrCreate(name: string, candidate: string): Promise<string> {
    await this.db
      .insertInto('app_settings')
      .values({ name, value: candidate, created_at: Date.now() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db.selectFrom('app_settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return row.value;
  }
}
