import { randomBytes, randomUUID } from 'node:crypto';
import type { Deps } from '../../plugins/deps.js';
import { API_TOKEN_PREFIX, ApiMsg, AuditAction, MAX_TOKEN_DAYS, MAX_TOKENS_PER_USER, OfficeRole, type ApiToken, type CreateTokenBody, type CreateTokenReply, type TokenListReply } from '@survey-bird/contracts';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { pageOf, pagingReply } from '../../http/paging.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import { tokenHash } from './lookup.js';
import { TokensRepository, type TokenRow } from './repository.js';
import { iso } from '../../lib/time.js';

const DAY_MS = 86_400_000;

function toToken(t: TokenRow): ApiToken {
  return {
    _id: t.id, name: t.name, hint: t.hint, surveyId: t.survey_id, surveyTitle: t.survey_title, createdBy: t.creator_email,
    createdAt: iso(t.created_at), expiresAt: iso(t.expires_at), lastUsedAt: iso(t.last_used_at), revokedAt: iso(t.revoked_at),
  };
}

/** The owner sees and revokes every token of the organization (someone left); everyone else their own. */
const seesAll = (actor: OfficeActor) => actor.officeRole === OfficeRole.owner;

/**
 * API tokens. Every office role makes its own: a token acts as its creator at each use (office role
 * and surveys as they are then, narrowed to its one survey), on the read routes only, so it can
 * never reach more than its creator reads in the browser.
 */
export class TokensService {
  private readonly repo: TokensRepository;

  constructor(private readonly deps: Pick<Deps, 'db'>) {
    this.repo = new TokensRepository(deps.db.kysely);
  }

  async list(actor: OfficeActor, pageNumber: number): Promise<TokenListReply> {
    const page = pageOf(pageNumber);
    const owner = seesAll(actor) ? null : actor.userId;
    const [rows, total] = await Promise.all([this.repo.list(actor.organizationId, owner, page.offset, page.limit), this.repo.count(actor.organizationId, owner)]);
    return { tokens: rows.map(toToken), ...pagingReply(page, total) };
  }

  async create(actor: OfficeActor, audit: AuditActor, body: CreateTokenBody, now = Date.now()): Promise<CreateTokenReply> {
    const expiresAt = Date.parse(/T/.test(body.expiresAt) ? body.expiresAt : `${body.expiresAt}T23:59:59.999Z`);
    if (!(expiresAt > now) || expiresAt > now + MAX_TOKEN_DAYS * DAY_MS) throw badRequest(ApiMsg.tokenExpiry);
    let survey: { id: string; title: string } | null = null;
    if (body.surveyId !== undefined) {
      // A survey-limited office user's token reaches only one of their surveys.
      const inScope = actor.surveys === 'all' || actor.surveys.includes(body.surveyId);
      survey = (inScope && (await this.repo.surveyOf(body.surveyId, actor.organizationId))) || null;
      if (!survey) throw notFound(ApiMsg.surveyNotFound);
    }
    if ((await this.repo.activeOf(actor.userId, now)) >= MAX_TOKENS_PER_USER) throw conflict(ApiMsg.tokenLimit);
    const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = {
      id: randomUUID(), organization_id: actor.organizationId, user_id: actor.userId, name: body.name, token_hash: tokenHash(secret), hint: `${secret.slice(0, 9)}…`,
      survey_id: survey?.id ?? null, created_at: now, expires_at: expiresAt, last_used_at: null, used_day: null, revoked_at: null,
    };
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.repo.insert(row, trx);
      await recordAudit(trx, audit, { organizationId: actor.organizationId, action: AuditAction.createToken, surveyId: row.survey_id, target: { type: 'api_token', id: row.id, label: row.name }, after: { name: row.name, surveyId: row.survey_id, expiresAt: iso(expiresAt) } }, now);
    });
    return { token: toToken({ ...row, survey_title: survey?.title ?? null, creator_email: actor.email }), secret };
  }

  async revoke(id: string, actor: OfficeActor, audit: AuditActor, now = Date.now()): Promise<{ msg: string }> {
    const token = await this.repo.find(id, actor.organizationId);
    if (!token || (!seesAll(actor) && token.user_id !== actor.userId)) throw notFound(ApiMsg.tokenNotFound);
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      // Revoking twice records nothing the second time.
      if (await this.repo.revoke(id, now, trx)) {
        await recordAudit(trx, audit, { organizationId: actor.organizationId, action: AuditAction.revokeToken, surveyId: token.survey_id, target: { type: 'api_token', id, label: token.name }, before: { revokedAt: null }, after: { revokedAt: iso(now) } }, now);
      }
    });
    return { msg: ApiMsg.tokenRevoked };
  }
}
