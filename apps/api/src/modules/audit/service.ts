import { PassThrough, type Readable } from 'node:stream';
import type { Deps } from '../../plugins/deps.js';
import { AuditAction, type AuditEventRow, type AuditQuery, Limits } from '@survey-bird/contracts';
import { pageOf, pagingReply } from '../../http/paging.js';
import { plainText } from '../../lib/spreadsheet.js';
import { recordAudit, type AuditActor } from './record.js';
import { AuditRepository, type AuditFilter, type AuditRecord } from './repository.js';

const DAY_MS = 86_400_000;
/** One export reads the log this many rows at a time; memory stays flat however long the log. */
const EXPORT_BATCH = 1000;
/** The export's bound: a year of a busy organization's office actions, far more than a screen shows. */
export const MAX_AUDIT_EXPORT_ROWS = 100_000;

export class AuditService {
  private readonly repo: AuditRepository;

  constructor(private readonly deps: Pick<Deps, 'db'>) {
    this.repo = new AuditRepository(deps.db.kysely);
  }

  async list(organizationId: string, query: AuditQuery) {
    const page = pageOf(query.page, Limits.pageSize);
    const { rows, total } = await this.repo.list(filterOf(organizationId, query), page);
    return { events: rows.map(toRow), ...pagingReply(page, total) };
  }

  /** The filtered log as xlsx, streamed; the export itself is an audited action. */
  async xlsx(organizationId: string, query: AuditQuery, actor: AuditActor): Promise<Readable> {
    const filter = filterOf(organizationId, query);
    await recordAudit(this.deps.db.kysely, actor, { organizationId, action: AuditAction.exportAudit, after: { ...query, page: undefined } });
    const out = new PassThrough();
    void (async () => {
      const { default: ExcelJS } = await import('exceljs');
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
      const sheet = book.addWorksheet('Audit');
      sheet.columns = HEADER.map((header, i) => ({ header, width: [20, 24, 28, 30, 14, 14, 28, 16, 30, 40, 40, 16][i], ...(i === 0 ? { style: { numFmt: 'dd/mm/yyyy hh:mm:ss' } } : {}) }));
      for (let offset = 0; offset < MAX_AUDIT_EXPORT_ROWS; offset += EXPORT_BATCH) {
        const rows = await this.repo.rows(filter, EXPORT_BATCH, offset);
        for (const r of rows) sheet.addRow(cellsOf(r)).commit();
        if (rows.length < EXPORT_BATCH) break;
      }
      sheet.commit();
      await book.commit();
    })().catch((err: Error) => out.destroy(err));
    return out;
  }
}

const HEADER = ['When (UTC)', 'Action', 'Who', 'E-mail', 'Role', 'Office role', 'Survey', 'Target', 'Target name', 'Before', 'After', 'IP'];

function cellsOf(r: AuditRecord): unknown[] {
  const text = (v: string | null) => (v === null ? '' : plainText(v));
  return [new Date(Number(r.created_at)), r.action, text(r.actor_name), text(r.actor_email), r.actor_role, r.actor_office_role ?? '', text(r.survey_title), r.target_type ?? '', text(r.target_label), text(r.before), text(r.after), r.ip ?? ''];
}

function timeOf(value: string | undefined, endOfDay: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return Date.parse(`${value}T00:00:00Z`) + (endOfDay ? DAY_MS - 1 : 0);
  return Date.parse(value);
}

function filterOf(organizationId: string, q: AuditQuery): AuditFilter {
  return { organizationId, action: q.action, actorId: q.actorId, surveyId: q.surveyId, from: timeOf(q.from, false), to: timeOf(q.to, true) };
}

const parsed = (json: string | null) => (json === null ? null : (JSON.parse(json) as Record<string, unknown>));

function toRow(r: AuditRecord): AuditEventRow {
  return {
    _id: r.id,
    action: r.action,
    at: new Date(Number(r.created_at)).toISOString(),
    actorId: r.actor_user_id,
    actorEmail: r.actor_email,
    actorName: r.actor_name,
    actorRole: r.actor_role,
    officeRole: r.actor_office_role,
    surveyId: r.survey_id,
    surveyTitle: r.survey_title,
    targetType: r.target_type,
    targetId: r.target_id,
    targetLabel: r.target_label,
    before: parsed(r.before),
    after: parsed(r.after),
    ip: r.ip,
  };
}
