import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class HealthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** How many of these migrations Kysely's Migrator recorded as run (its own table, in our schema). */
  async appliedCount(names: readonly string[]): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*) as n from kysely_migration where name in (${sql.join(names)})`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }
}
