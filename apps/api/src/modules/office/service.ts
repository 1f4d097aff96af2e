import { randomUUID } from 'node:crypto';
import type { Deps } from '../../plugins/deps.js';
import { AuditAction, type InviteOfficeUserBody, OfficeMsg, OfficeRole, type OfficeUser, Role, type UpdateOfficeUserBody } from '@survey-bird/contracts';
import { isUniqueViolation } from '../../db/errors.js';
import type { OfficeUserRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Page } from '../../http/paging.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import { claimAccount, mailInvitation } from '../teams/invitations.js';
import { OfficeRepository, type ListedOfficeUser } from './repository.js';

/**
 * Office users: an owner invites people by e-mail with an office role (optionally limited to some
 * surveys), changes their role or surveys, and removes them. The account role stays `organization`
 * (the spec's guards and home screen); the office role lives on the membership, read with the
 * session on every request, so a change applies at the next request.
 */
export class OfficeService {
  private readonly repo: OfficeRepository;

  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'mailer'>) {
    this.repo = new OfficeRepository(deps.db.kysely);
  }

  async list(actor: OfficeActor, page: Page, search: string): Promise<{ officeUsers: OfficeUser[]; total: number }> {
    const { rows, total } = await this.repo.list(actor.organizationId, page, search);
    return { officeUsers: rows.map(toOfficeUser), total };
  }

  /**
   * The invitation reuses the survey invitations' account rules (teams/invitations.ts): an
   * organization account is linked at once and mailed a sign-in link; a role-less one is upgraded;
   * an account with another role is refused; a new e-mail registers from the mailed link.
   */
  async invite(actor: OfficeActor, body: InviteOfficeUserBody, audit: AuditActor): Promise<OfficeUser> {
    const surveyIds = await this.checkedSurveys(actor, body.role, body.surveyIds);
    // One organization per office login: another organization's first owner is taken too.
    if (await this.repo.ownsAnOrganization(body.email)) throw conflict(OfficeMsg.alreadyOfficeUser);
    const row: OfficeUserRow = {
      id: randomUUID(), organization_id: actor.organizationId, email: body.email, role: body.role,
      survey_ids: surveyIds === null ? null : JSON.stringify(surveyIds), invited_by: actor.userId, created_at: Date.now(),
    };
    let userId: string | null;
    try {
      userId = await this.deps.db.kysely.transaction().execute(async (trx) => {
        const claimed = await claimAccount(trx, body.email, Role.organization, actor.organizationId);
        await new OfficeRepository(trx).insert(row);
        await recordAudit(trx, audit, { organizationId: actor.organizationId, action: AuditAction.inviteOfficeUser, target: { type: 'office_user', id: row.id, label: row.email }, after: { role: row.role, surveyIds: surveyIds ?? 'all' } }, row.created_at);
        return claimed;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(OfficeMsg.alreadyOfficeUser);
      throw err;
    }
    const organization = (await this.repo.organizationName(actor.organizationId)) ?? 'Your organization';
    await mailInvitation(this.deps, { email: body.email, role: Role.organization, officeRole: body.role, hasAccount: userId !== null, organization });
    return toOfficeUser({ ...row, registered: userId !== null });
  }

  async update(actor: OfficeActor, id: string, body: UpdateOfficeUserBody, audit: AuditActor): Promise<OfficeUser> {
    const surveyIds = await this.checkedSurveys(actor, body.role, body.surveyIds);
    const next = { role: body.role, survey_ids: surveyIds === null ? null : JSON.stringify(surveyIds) };
    const outcome = await this.repo.change(id, actor.organizationId, next, async (before, trx) => {
      const was = { role: before.role, surveyIds: surveysOfRow(before.survey_ids) };
      const now = { role: next.role, surveyIds: surveyIds ?? 'all' };
      if (JSON.stringify(was) === JSON.stringify(now)) return;
      await recordAudit(trx, audit, { organizationId: actor.organizationId, action: AuditAction.changeOfficeUser, target: { type: 'office_user', id, label: before.email }, before: was, after: now });
    });
    this.settle(outcome);
    const row = await this.repo.find(id, actor.organizationId);
    if (!row) throw notFound(OfficeMsg.notFound);
    return toOfficeUser(row);
  }

  async remove(actor: OfficeActor, id: string, audit: AuditActor): Promise<void> {
    this.settle(await this.repo.change(id, actor.organizationId, null, (before, trx) => recordAudit(trx, audit, {
      organizationId: actor.organizationId, action: AuditAction.removeOfficeUser, target: { type: 'office_user', id, label: before.email }, before: { role: before.role, surveyIds: surveysOfRow(before.survey_ids) },
    })));
  }

  private settle(outcome: 'done' | 'not-found' | 'last-owner'): void {
    if (outcome === 'not-found') throw notFound(OfficeMsg.notFound);
    if (outcome === 'last-owner') throw conflict(OfficeMsg.lastOwner);
  }

  /** null: every survey. An owner always sees every survey; a list must name the organization's own surveys. */
  private async checkedSurveys(actor: OfficeActor, role: OfficeRole, ids: readonly string[] | null | undefined): Promise<string[] | null> {
    if (ids === null || ids === undefined) return null;
    if (role === OfficeRole.owner) throw badRequest(OfficeMsg.ownerSeesAll);
    const unique = [...new Set(ids)];
    if ((await this.repo.countSurveys(actor.organizationId, unique)) !== unique.length) throw badRequest(OfficeMsg.surveysUnknown);
    return unique;
  }
}

/** A stored survey list as the audit log shows it: the ids, or 'all'. */
function surveysOfRow(json: string | null): string[] | 'all' {
  return json === null ? 'all' : (JSON.parse(json) as string[]);
}

function toOfficeUser(r: ListedOfficeUser): OfficeUser {
  return {
    _id: r.id, email: r.email, role: r.role as OfficeUser['role'], surveyIds: r.survey_ids === null ? null : (JSON.parse(r.survey_ids) as string[]),
    registered: r.registered, createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}
