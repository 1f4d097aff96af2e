import type { Deps } from '../../plugins/deps.js';
import type { Kysely } from 'kysely';
import { ApiMsg, type OfficeRole, Role } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import { conflict } from '../../http/errors.js';
import { invitationToken } from '../accounts/links.js';
import { InvitationsRepository } from './invitations-repository.js';
import { mailWords } from '../mail/texts.js';

/** The roles an invitation can give: an organization's owner, or a member of one survey. */
export type InvitedRole = typeof Role.organization | typeof Role.fieldUser | typeof Role.supervisor;

/**
 * Runs inside the inviting transaction; `organizationId` is the inviting organization (null when the
 * master admin adds an organization). An account holds one role (docs/decisions.md, role model):
 * - an account with the invited role is reused (returns its id: the invitation is linked to it);
 * - an account with role `nothing` is upgraded to the invited role, unless it is unverified: then
 *   it is deleted (its password was never proven to be the mailbox owner's);
 * - a master admin's or an organization owner's e-mail invited to a survey is answered like an
 *   e-mail without an account (the invitation stays inert): a 409 would tell the organization that
 *   the e-mail is an admin's or an owner's;
 * - an account with another member role (field user / supervisor) is a 409 `emailHasOtherRole`;
 * - a pending invitation for another role blocks only within the same organization: another
 *   organization's pending invitation never does, and an owner's invitation is never blocked by a
 *   pending survey invitation (the owner role wins at registration).
 * Returns null when the e-mail has no usable account yet: it registers from the mailed link.
 */
export async function claimAccount(db: Kysely<Database>, email: string, role: InvitedRole, organizationId: string | null): Promise<string | null> {
  const repo = new InvitationsRepository(db);
  let user = await repo.accountOf(email);
  if (user && !user.verified && user.role === Role.nothing) {
    // Nobody proved this mailbox chose that password (an attacker may have registered it first):
    // the account goes, its sessions with it, and the invitee registers from the invitation link.
    await repo.deleteUnverified(user.id);
    user = undefined;
  }
  const isMemberRole = role !== Role.organization;
  if (user) {
    if (user.role === role) return user.id;
    if (isMemberRole && (user.role === Role.masterAdmin || user.role === Role.organization)) return null;
    if (user.role !== Role.nothing) throw conflict(ApiMsg.emailHasOtherRole);
    if (!(await repo.upgradeRole(user.id, role))) throw conflict(ApiMsg.emailHasOtherRole);
    return user.id;
  }
  if (isMemberRole && organizationId) {
    if (await repo.hasOtherRoleInvitation(email, organizationId, role)) throw conflict(ApiMsg.emailHasOtherRole);
  }
  return null;
}

const OFFICE_WORDS: Record<OfficeRole, string> = {
  owner: 'an owner',
  admin: 'an admin',
  analyst: 'an analyst',
  finance: 'a finance officer',
  reviewer: 'a reviewer',
};

/** The invitation's registration link, with the token that proves the mailbox (accounts/links.ts). */
export function registrationLink(app: Pick<Deps, 'config'>, email: string): string {
  return `${app.config.publicUrl}/register?email=${encodeURIComponent(email)}&invite=${invitationToken(app.config.jwtSecret, email)}`;
}

/**
 * Mails the invitation: a registration link for a new person, a sign-in link for an existing account.
 * It names the inviting organization in the subject and the text (and the survey for a member), so
 * the invitee can tell who invites them before opening a link.
 */
export async function mailInvitation(app: Pick<Deps, 'config' | 'db' | 'mailer'>, invite: { email: string; role: InvitedRole; hasAccount: boolean; organization: string; survey?: string; officeRole?: OfficeRole }): Promise<void> {
  const { publicUrl } = app.config;
  const email = encodeURIComponent(invite.email);
  const link = invite.hasAccount ? `${publicUrl}/login?email=${email}` : registrationLink(app, invite.email);
  const action = invite.hasAccount ? 'Sign in with your existing account to get started' : 'Create your account to get started';
  // The first owner (added by the master admin) runs the organization; other office users join it.
  const owner = invite.role === Role.organization && invite.officeRole === undefined;
  if (invite.role === Role.fieldUser || invite.role === Role.supervisor) {
    // A field user's or supervisor's invitation reads in their account's language (English before they have one).
    const language = await app.db.kysely.selectFrom('users').select('language').where('email', '=', invite.email).executeTakeFirst();
    const words = mailWords(language?.language);
    await app.mailer.send({ to: invite.email, subject: words.memberInviteSubject(invite.organization), text: words.memberInviteText({ ...invite, role: invite.role, link }), link });
    return;
  }
  await app.mailer.send({
    to: invite.email,
    subject: owner ? `You are invited to run ${invite.organization} on Survey Bird` : `${invite.organization} invites you to Survey Bird`,
    // Office invitations stay in English: the office's screens are translated into one language so far.
    text: invite.officeRole !== undefined
      ? `${invite.organization} has invited you to Survey Bird as ${OFFICE_WORDS[invite.officeRole]} of its office. ${action}:\n\n${link}`
      : `You have been invited to Survey Bird as the owner of the organization "${invite.organization}". ${action}:\n\n${link}`,
    link,
  });
}
