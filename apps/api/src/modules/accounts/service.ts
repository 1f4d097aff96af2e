import type { TokenClaims } from '../../plugins/auth.js';
import type { Deps } from '../../plugins/deps.js';
import { ApiMsg, AuditAction, type AppLanguage, type CurrentUser, isAppLanguage, Role, type UserRow as UserListRow, type UserSummary } from '@survey-bird/contracts';
import { HttpError, badRequest, forbidden } from '../../http/errors.js';
import type { UserRow } from '../../db/schema.js';
import type { Actor } from '../../plugins/auth.js';
import type { Page } from '../../http/paging.js';
import { recordAudit } from '../audit/record.js';
import { registrationLink } from '../teams/invitations.js';
import { RESET_TTL_MS, VERIFY_TTL_MS, hashLinkToken, isInvitationToken, newLinkToken } from './links.js';
import { assertPasswordRule } from './password-rule.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { AccountsRepository } from './repository.js';
import { mailWords } from '../mail/texts.js';

export class AccountsService {
  private readonly repo: AccountsRepository;
  /** Compared against when the e-mail is unknown, so both cases cost one scrypt. */
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'mailer'>,
    /** Signs a session's token (plugins/auth.ts). */
    private readonly signToken: (claims: TokenClaims) => string,
  ) {
    this.repo = new AccountsRepository(deps.db.kysely);
  }

  hasMasterAdmin(): Promise<boolean> {
    return this.repo.hasMasterAdmin();
  }

  async signOut(sessionId: string): Promise<void> {
    await this.repo.revokeSession(sessionId);
  }

  async signOutAll(userId: string): Promise<void> {
    await this.repo.revokeSessions(userId);
  }

  /** The master admin's All users page. */
  async listUsers(page: Page, search: string): Promise<{ users: UserListRow[]; total: number }> {
    const { rows, total } = await this.repo.listUsers(page, search);
    return { users: rows.map(toUserListRow), total };
  }

  private get config() {
    return this.deps.config;
  }

  async login(email: string, password: string, userAgent: string, ip: string) {
    const user = await this.repo.findByEmail(email);
    // A refused hash (password pool full: 503) must not stay cached for every later sign-in.
    this.dummyHash ??= hashPassword('not a password', this.config.scryptN).catch((err: unknown) => {
      this.dummyHash = undefined;
      throw err;
    });
    const ok = await verifyPassword(password, user?.password_hash ?? (await this.dummyHash));
    if (!user || !ok) throw new HttpError(401, ApiMsg.wrongCredentials);
    const sessionId = await this.repo.createSession(user.id, userAgent, this.config.tokenTtlSeconds * 1000);
    // Office sign-ins are audited; a field user's phone signs in too often for the log to be read.
    const office = user.role === Role.organization ? await this.repo.officeOf(user.email) : undefined;
    if (office) {
      const actor = { userId: user.id, email: user.email, name: user.full_name ?? user.email, role: user.role, officeRole: office.officeRole, ip };
      await recordAudit(this.deps.db.kysely, actor, { organizationId: office.organizationId, action: AuditAction.signIn, target: { type: 'session', id: sessionId }, after: { userAgent: userAgent.slice(0, 200) } });
    }
    const token = this.signToken({ sid: sessionId, sub: user.id });
    return { user: summary(user), msg: ApiMsg.loginSuccess, token };
  }

  /** True when the e-mail was invited and `invite` is its invitation link's token. */
  async hasValidInvitation(email: string, invite: string | undefined): Promise<boolean> {
    return isInvitationToken(this.config.jwtSecret, email, invite) && (await this.repo.invitedRole(email)) !== Role.nothing;
  }

  /**
   * Same reply whether or not the e-mail has an account; an existing owner is told by mail instead.
   * An invited e-mail needs its invitation token (`invited`): the account is then verified at once.
   * Without it nothing is created (whoever sent it may not own the mailbox: account pre-hijacking)
   * and the invitee is mailed the invitation link again.
   */
  async register(email: string, password: string, invited: boolean, language?: AppLanguage): Promise<void> {
    await assertPasswordRule(password);
    const existing = await this.repo.findByEmail(email);
    if (existing) {
      // Spend the hash a new account costs, so the reply time does not tell the e-mail is taken.
      await hashPassword(password, this.config.scryptN);
      await this.deps.mailer.send({
        to: email,
        subject: 'Someone tried to create a Survey Bird account with your e-mail',
        text: `You already have a Survey Bird account. Sign in at ${this.config.publicUrl}/login?email=${encodeURIComponent(email)} or reset your password there.`,
      });
      return;
    }
    const role = await this.repo.invitedRole(email);
    const passwordHash = await hashPassword(password, this.config.scryptN);
    if (role !== Role.nothing && !invited) {
      const link = registrationLink(this.deps, email);
      await this.deps.mailer.send({
        to: email,
        subject: 'Create your Survey Bird account from your invitation',
        text: `Someone asked to create a Survey Bird account with your e-mail. You were invited: create your account from this link (if it was not you, ignore this e-mail):\n\n${link}`,
        link,
      });
      return;
    }
    try {
      const user = await this.repo.createUser({ email, passwordHash, role, verified: invited, language });
      if (!invited) await this.sendVerification(user);
    } catch (err) {
      // A concurrent registration of the same e-mail won the unique constraint: same reply.
      if (await this.repo.findByEmail(email)) return;
      throw err;
    }
  }

  async sendVerification(user: UserRow): Promise<void> {
    const { token, id } = newLinkToken();
    await this.repo.createLinkToken(id, user.id, 'verify', VERIFY_TTL_MS);
    const link = `${this.config.publicUrl}/confirm-email/${token}`;
    const words = mailWords(user.language);
    await this.deps.mailer.send({ to: user.email, subject: words.verifySubject, text: words.verifyText(link), link });
  }

  async confirmEmail(token: string): Promise<void> {
    const id = hashLinkToken(token);
    const row = await this.repo.findLinkToken(id, 'verify');
    if (!row || row.used_at !== null || row.expires_at < Date.now()) throw badRequest(ApiMsg.linkExpired);
    if (!(await this.repo.consumeLinkToken(id))) throw badRequest(ApiMsg.linkExpired);
    await this.repo.setVerified(row.user_id);
    // Sessions from before the mailbox was proven (whoever registered may not be its owner) end.
    await this.repo.revokeSessions(row.user_id);
  }

  /** By the e-mail, or by the (expired) verification token the link carried. */
  async resendVerification(by: { id?: string; email?: string }): Promise<void> {
    let user: UserRow | undefined;
    if (by.email) user = await this.repo.findByEmail(by.email);
    else if (by.id) {
      const token = await this.repo.findLinkToken(hashLinkToken(by.id), 'verify');
      user = token ? await this.repo.findById(token.user_id) : await this.repo.findById(by.id);
    }
    if (user && !user.verified) await this.sendVerification(user);
  }

  async sendResetLink(email: string): Promise<void> {
    const user = await this.repo.findByEmail(email);
    if (!user) return;
    const { token, id } = newLinkToken();
    await this.repo.createLinkToken(id, user.id, 'reset', RESET_TTL_MS);
    const link = `${this.config.publicUrl}/reset-password?token=${token}&email=${encodeURIComponent(email)}`;
    const words = mailWords(user.language);
    await this.deps.mailer.send({ to: email, subject: words.resetSubject, text: words.resetText(link), link });
  }

  async resetPassword(resetToken: string, newPassword: string): Promise<void> {
    // Before the token is spent: a refused password leaves the link usable for another try.
    await assertPasswordRule(newPassword);
    const id = hashLinkToken(resetToken);
    const row = await this.repo.findLinkToken(id, 'reset');
    if (!row || row.used_at !== null || row.expires_at < Date.now()) throw badRequest(ApiMsg.resetLinkInvalid);
    if (!(await this.repo.consumeLinkToken(id))) throw badRequest(ApiMsg.resetLinkInvalid);
    await this.repo.setPassword(row.user_id, await hashPassword(newPassword, this.config.scryptN));
    await this.repo.consumeAllLinkTokens(row.user_id, 'reset');
    // The link proved the mailbox, and whoever knew the old password must be signed out.
    await this.repo.setVerified(row.user_id);
    await this.repo.revokeSessions(row.user_id);
  }

  async changePassword(user: UserRow, sessionId: string, oldPassword: string, newPassword: string, signOutOthers: boolean): Promise<void> {
    await assertPasswordRule(newPassword);
    if (!(await verifyPassword(oldPassword, user.password_hash))) throw badRequest(ApiMsg.wrongOldPassword);
    await this.repo.setPassword(user.id, await hashPassword(newPassword, this.config.scryptN));
    await this.repo.consumeAllLinkTokens(user.id, 'reset');
    if (signOutOthers) await this.repo.revokeSessions(user.id, sessionId);
  }

  current(user: UserRow, actor: Actor | null): CurrentUser {
    if (!user.verified) throw forbidden(ApiMsg.checkEmail);
    const office = actor?.role === Role.organization ? actor : null;
    return { ...summary(user), _id: user.id, fullName: user.full_name, verified: true, organization_id: office?.organizationId ?? null, officeRole: office?.officeRole ?? null, language: isAppLanguage(user.language) ? user.language : 'en' };
  }

  /** The account's app language: the phone shows it after any sign-in and mails are written in it. */
  async setLanguage(user: UserRow, language: AppLanguage): Promise<void> {
    await this.repo.setLanguage(user.id, language);
  }

  /** Creates (or resets) a verified master admin: used at start-up and by `npm run admin:create`. */
  async upsertMasterAdmin(email: string, password: string): Promise<void> {
    await assertPasswordRule(password);
    const passwordHash = await hashPassword(password, this.config.scryptN);
    const existing = await this.repo.findByEmail(email);
    if (!existing) {
      await this.repo.createUser({ email, passwordHash, role: Role.masterAdmin, verified: true, fullName: 'Master admin' });
      return;
    }
    await this.repo.setPassword(existing.id, passwordHash);
    await this.repo.consumeAllLinkTokens(existing.id, 'reset');
    await this.repo.setRole(existing.id, Role.masterAdmin);
    await this.repo.setVerified(existing.id);
  }
}

function summary(user: UserRow): UserSummary {
  return { email: user.email, role: user.role as UserSummary['role'] };
}

type UserListFields = Pick<UserRow, 'id' | 'email' | 'role' | 'verified' | 'created_at'> & { organization_name: string | null };

export function toUserListRow(r: UserListFields): UserListRow {
  return { _id: r.id, email: r.email, role: r.role as UserListRow['role'], verified: r.verified === 1, organization_name: r.organization_name ?? null, createdAt: new Date(Number(r.created_at)).toISOString() };
}
