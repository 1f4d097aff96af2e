import { randomUUID } from 'node:crypto';
import type { Deps } from '../../plugins/deps.js';
import { ApiMsg, AuditAction, type CreateOrganizationBody, OfficeMsg, DEFAULT_STALE_SYNC_DAYS, type Organization, type OrganizationSettingsBody, Role, type SendMailBody } from '@survey-bird/contracts';
import type { NewOrganization, OrganizationRow } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import type { Page } from '../../http/paging.js';
import { isUniqueViolation } from '../../db/errors.js';
import { claimAccount, mailInvitation } from '../teams/invitations.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import { OrganizationsRepository } from './repository.js';

export class OrganizationsService {
  private readonly repo: OrganizationsRepository;

  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'mailer'>) {
    this.repo = new OrganizationsRepository(deps.db.kysely);
  }
  /** The master admin's organizations page. */
  async list(page: Page, search: string): Promise<{ organizations: Organization[]; total: number }> {
    const { rows, total } = await this.repo.list(page, search);
    return { organizations: rows.map(toOrganization), total };
  }


  async current(actor: OfficeActor): Promise<Organization> {
    const row = await this.repo.findById(actor.organizationId);
    if (!row) throw notFound();
    return toOrganization(row);
  }

  /** The caller's own organization only: the id comes from the session, never from the body. */
  async updateSettings(office: OfficeActor, body: OrganizationSettingsBody, actor: AuditActor): Promise<Organization> {
    // The settings apply to every survey: a survey-limited office user changes none.
    if (office.surveys !== 'all') throw forbidden(OfficeMsg.limitedCannot);
    const { organizationId } = office;
    const before = await this.current(office);
    if (body.staleSyncDays !== undefined && body.staleSyncDays !== before.staleSyncDays) {
      const staleSyncDays = body.staleSyncDays;
      await this.deps.db.kysely.transaction().execute(async (trx) => {
        await new OrganizationsRepository(trx).setStaleSyncDays(organizationId, staleSyncDays);
        await recordAudit(trx, actor, { organizationId, action: AuditAction.organizationSettings, target: { type: 'organization', id: organizationId, label: before.organization_name }, before: { staleSyncDays: before.staleSyncDays }, after: { staleSyncDays } });
      });
    }
    return this.current(office);
  }

  /** Adds the organization and invites its owner; the e-mail is unique among organizations. */
  async create(body: CreateOrganizationBody): Promise<Organization> {
    if (await this.repo.findByEmail(body.email)) throw conflict(ApiMsg.organizationExists);
    const row: NewOrganization = { id: randomUUID(), name: body.organizationName, email: body.email, created_at: Date.now() };
    let userId: string | null;
    try {
      userId = await this.deps.db.kysely.transaction().execute(async (trx) => {
        const claimed = await claimAccount(trx, body.email, Role.organization, null);
        // With its first owner's membership: an e-mail already in another organization's office is taken.
        await new OrganizationsRepository(trx).insert(row);
        return claimed;
      });
    } catch (err) {
      // A concurrent request added the same e-mail between the check and the insert.
      if (isUniqueViolation(err)) throw conflict(ApiMsg.organizationExists);
      throw err;
    }
    await mailInvitation(this.deps, { email: body.email, role: Role.organization, hasAccount: userId !== null, organization: body.organizationName });
    return toOrganization({ ...row, stale_sync_days: DEFAULT_STALE_SYNC_DAYS });
  }

  /** Mails one organization (404 when unknown) or, without organization_id, every organization. */
  async sendMail(body: SendMailBody): Promise<number> {
    let recipients: string[];
    if (body.organization_id) {
      const org = await this.repo.findById(body.organization_id);
      if (!org) throw notFound();
      recipients = [org.email];
    } else {
      recipients = await this.repo.allEmails();
    }
    for (const to of recipients) await this.deps.mailer.send({ to, subject: body.subject, text: body.body });
    return recipients.length;
  }
}

export function toOrganization(row: OrganizationRow): Organization {
  return { _id: row.id, organization_name: row.name, email: row.email, createdAt: new Date(Number(row.created_at)).toISOString(), staleSyncDays: Number(row.stale_sync_days) };
}
