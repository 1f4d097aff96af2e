import { PostgresAdapter, type Kysely } from 'kysely';
import { OfficeRole, Role } from '@survey-bird/contracts';
import type { Database, OfficeUserRow } from '../../db/schema.js';
import { contains } from '../../db/sql.js';
import type { Page } from '../../http/paging.js';

export type ListedOfficeUser = OfficeUserRow & { registered: boolean };

/** What a change to a membership came to. */
export type Change = 'done' | 'not-found' | 'last-owner';

/** An organization's office memberships; every query is scoped by the caller's organization. */
export class OfficeRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Kysely<Database>) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /** Owners first, then by e-mail; `registered` is 1 once the e-mail has an organization account. */
  async list(organizationId: string, page: Page, search: string): Promise<{ rows: ListedOfficeUser[]; total: number }> {
    let q = this.db.selectFrom('office_users as o').where('o.organization_id', '=', organizationId);
    if (search) q = q.where(contains('o.email', search));
    const [rows, total] = await Promise.all([
      q.selectAll('o').select((eb) => eb.exists(eb.selectFrom('users as u').select('u.id').whereRef('u.email', '=', 'o.email').where('u.role', '=', Role.organization)).as('registered'))
        .orderBy((eb) => eb.case().when('o.role', '=', OfficeRole.owner).then(0).else(1).end())
        .orderBy('o.email').orderBy('o.id').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    // SQLite answers exists with 0 or 1, PostgreSQL with a boolean.
    return { rows: rows.map((r) => ({ ...r, registered: Boolean(r.registered) })), total: Number(total.n) };
  }

  async find(id: string, organizationId: string): Promise<ListedOfficeUser | undefined> {
    const row = await this.db.selectFrom('office_users as o').selectAll('o')
      .select((eb) => eb.exists(eb.selectFrom('users as u').select('u.id').whereRef('u.email', '=', 'o.email').where('u.role', '=', Role.organization)).as('registered'))
      .where('o.id', '=', id).where('o.organization_id', '=', organizationId).executeTakeFirst();
    return row && { ...row, registered: Boolean(row.registered) };
  }

  /** Changes (`next`) or removes (null) a membership; `audit` runs in the same transaction. */
  async insert(row: OfficeUserRow): Promise<void> {
    await this.db.insertInto('office_users').values(row).execute();
  }

  /** How many of `ids` are surveys of the organization. */
  async countSurveys(organizationId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const row = await this.db.selectFrom('surveys').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', organizationId).where('id', 'in', ids).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The organization's name, for the invitation mail. */
  async organizationName(organizationId: string): Promise<string | undefined> {
    return (await this.db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst())?.name;
  }

  /** Whether the e-mail is an organization's owner e-mail (its first owner, whatever memberships say). */
  async ownsAnOrganization(email: string): Promise<boolean> {
    return (await this.db.selectFrom('organizations').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
  }

  /**
   * Changes (`next`) or removes (null) a membership of the organization, unless that would leave it
   * without an owner. On PostgreSQL the organization's row is locked first, so two owners removing
   * each other at once are decided one after the other (the second sees one owner left); SQLite
   * has one writer.
   */
  async change(id: string, organizationId: string, next: { role: string; survey_ids: string | null } | null, audit?: (before: OfficeUserRow, trx: Kysely<Database>) => Promise<void>): Promise<Change> {
    return this.db.transaction().execute(async (trx) => {
      if (this.postgres) await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
      const current = await trx.selectFrom('office_users').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
      if (!current) return 'not-found';
      if (current.role === OfficeRole.owner && next?.role !== OfficeRole.owner) {
        const owners = await trx.selectFrom('office_users').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', organizationId).where('role', '=', OfficeRole.owner).executeTakeFirstOrThrow();
        if (Number(owners.n) <= 1) return 'last-owner';
      }
      if (next) await trx.updateTable('office_users').set(next).where('id', '=', id).where('organization_id', '=', organizationId).execute();
      else await trx.deleteFrom('office_users').where('id', '=', id).where('organization_id', '=', organizationId).execute();
      await audit?.(current, trx);
      return 'done';
    });
  }
}
