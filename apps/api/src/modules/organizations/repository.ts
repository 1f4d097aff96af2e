import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { OfficeRole } from '@survey-bird/contracts';
import type { Database, NewOrganization, OrganizationRow } from '../../db/schema.js';
import { contains } from '../../db/sql.js';
import type { Page } from '../../http/paging.js';

export class OrganizationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: string): Promise<OrganizationRow | undefined> {
    return this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<OrganizationRow | undefined> {
    return this.db.selectFrom('organizations').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** The organization and its first owner's office membership (call inside a transaction). */
  async insert(row: NewOrganization & { created_at: number }): Promise<void> {
    await this.db.insertInto('organizations').values(row).execute();
    await this.db.insertInto('office_users').values({ id: randomUUID(), organization_id: row.id, email: row.email, role: OfficeRole.owner, survey_ids: null, invited_by: null, created_at: row.created_at }).execute();
  }

  async setStaleSyncDays(id: string, days: number): Promise<void> {
    await this.db.updateTable('organizations').set({ stale_sync_days: days }).where('id', '=', id).execute();
  }

  /** Newest first; the search matches the name or the e-mail. */
  async list(page: Page, search: string) {
    let q = this.db.selectFrom('organizations');
    if (search) q = q.where((eb) => eb.or([contains('organizations.name', search), contains('organizations.email', search)]));
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  async allEmails(): Promise<string[]> {
    const rows = await this.db.selectFrom('organizations').select('email').orderBy('created_at').execute();
    return rows.map((r) => r.email);
  }
}
