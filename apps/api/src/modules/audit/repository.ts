import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { AuditEventsTable, Database } from '../../db/schema.js';
import type { Page } from '../../http/paging.js';

/** What narrows the log; the organization always. Times are epoch milliseconds, inclusive. */
export interface AuditFilter {
  organizationId: string;
  action?: string | undefined;
  actorId?: string | undefined;
  surveyId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export type AuditRecord = AuditEventsTable & { survey_title: string | null };

/** Reads only: the log is written by record.ts and never changed (append-only.test.ts). */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private filtered(f: AuditFilter): SelectQueryBuilder<Database, 'audit_events', object> {
    let q = this.db.selectFrom('audit_events').where('audit_events.organization_id', '=', f.organizationId);
    if (f.action) q = q.where('audit_events.action', '=', f.action);
    if (f.actorId) q = q.where('audit_events.actor_user_id', '=', f.actorId);
    if (f.surveyId) q = q.where('audit_events.survey_id', '=', f.surveyId);
    if (f.from !== undefined) q = q.where('audit_events.created_at', '>=', f.from);
    if (f.to !== undefined) q = q.where('audit_events.created_at', '<=', f.to);
    return q;
  }

  async list(f: AuditFilter, page: Page): Promise<{ rows: AuditRecord[]; total: number }> {
    const [rows, count] = await Promise.all([this.rows(f, page.limit, page.offset), this.filtered(f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()]);
    return { rows, total: Number(count.n) };
  }

  /** Newest first; the id (a UUIDv7) breaks ties within a millisecond. */
  rows(f: AuditFilter, limit: number, offset: number): Promise<AuditRecord[]> {
    return this.filtered(f)
      .leftJoin('surveys', (j) => j.onRef('surveys.id', '=', 'audit_events.survey_id').onRef('surveys.organization_id', '=', 'audit_events.organization_id'))
      .selectAll('audit_events')
      .select('surveys.title as survey_title')
      .orderBy('audit_events.created_at', 'desc')
      .orderBy('audit_events.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }
}
