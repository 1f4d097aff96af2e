import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type Access, ApiMsg, Msg, type OfficeAccess, type OfficeRole, Role } from '@survey-bird/contracts';
import { HttpError, forbidden } from '../http/errors.js';
import type { UserRow } from '../db/schema.js';
import { SessionLookup } from '../modules/accounts/session-lookup.js';
import { TokenLookup, apiTokenOf } from '../modules/tokens/lookup.js';

export interface TokenClaims {
  sid: string;
  sub: string;
}

/** The surveys an office user may see: every survey of the organization, or only these. */
export type SurveyScope = 'all' | readonly string[];

interface Signed {
  userId: string;
  email: string;
}
/** An office user: the organization comes from the membership, never from the request. */
export interface OfficeActor extends Signed {
  role: typeof Role.organization;
  organizationId: string;
  officeRole: OfficeRole;
  surveys: SurveyScope;
}
/** A supervisor: what they see is decided per survey by their member rows. */
export interface SupervisorActor extends Signed {
  role: typeof Role.supervisor;
}
export interface FieldUserActor extends Signed {
  role: typeof Role.fieldUser;
}
export interface AdminActor extends Signed {
  role: typeof Role.masterAdmin;
}
/** Signed in, with no route of its own beyond the account routes. */
export interface OtherActor extends Signed {
  role: typeof Role.nothing | typeof Role.customerService;
}
/**
 * Who is calling, one member per account role. Each route's `access` (contracts api.ts) selects the
 * members its handler receives (http/route.ts), so a handler never re-derives tenancy from a role
 * string: an organization handler holds an `organizationId: string`, a supervisor handler has none.
 */
export type Actor = OfficeActor | SupervisorActor | FieldUserActor | AdminActor | OtherActor;
export type ActorOf<R extends Role> = Extract<Actor, { role: R }>;

/**
 * Who is calling: the user row as it is now (role changes apply at once) and the session, or the
 * API token the caller sent (its sessionId is then `api-token:<id>`, which no session has).
 */
export interface AuthContext {
  user: UserRow;
  sessionId: string;
  /** Set when the caller sent an API token: the route must accept tokens (contracts `token`), else 403. */
  apiToken: { id: string; name: string } | null;
  /**
   * null only for an organization account without an office membership: the account routes
   * ('user' access) still serve it, every organization route refuses it.
   */
  actor: Actor | null;
}

/** The office membership a session lookup found for an organization account. */
export interface Membership {
  organizationId: string;
  officeRole: OfficeRole;
  surveys: SurveyScope;
}

export function actorOf(user: UserRow, membership: Membership | null): Actor | null {
  const signed = { userId: user.id, email: user.email };
  switch (user.role) {
    case Role.organization:
      return membership ? { role: Role.organization, ...signed, ...membership } : null;
    case Role.supervisor:
    case Role.fieldUser:
    case Role.masterAdmin:
    case Role.nothing:
    case Role.customerService:
      return { role: user.role, ...signed };
    default:
      // A role this code does not know gets no actor: every role-gated route refuses it.
      return null;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    authorize(access: Access, office?: OfficeAccess, token?: TokenAccess): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * The caller of a public route that also serves signed-in callers: null without an
     * Authorization header; a bad token is 401; an API token only where the route takes one.
     */
    identify(request: FastifyRequest, token?: TokenAccess): Promise<AuthContext | null>;
    signToken(claims: TokenClaims): string;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

const unauthorized = (msg: string) => new HttpError(401, msg);
/** Whether a route takes API tokens (contracts `RouteDef.token`). */
export type TokenAccess = 'bearer' | 'basic' | undefined;
/** Power BI and Excel send the Basic credentials they were asked for only after this challenge. */
const BASIC_CHALLENGE = 'Basic realm="Survey Bird", charset="UTF-8"';

/**
 * Tokens whose signature was already checked, with their claims, until they expire: a field
 * user's phone sends the same token with every response. Revocation and role changes still apply
 * at once: SessionLookup reads the session row again after any write to its tables in this
 * process (and at least every second, for writes made elsewhere).
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, TokenClaims & { exp: number }>();

  constructor(private readonly max = 1000) {}

  get(token: string, now = Date.now()): TokenClaims | undefined {
    const claims = this.entries.get(token);
    if (claims && claims.exp * 1000 > now) return claims;
    if (claims) this.entries.delete(token);
    return undefined;
  }

  set(token: string, claims: TokenClaims & { exp: number }): void {
    // Map order is insertion order: past the cap, the oldest entry goes.
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, claims);
  }
}

export default fp(
  async function auth(app: FastifyInstance) {
    const { config, db } = app;
    await app.register(fastifyJwt, {
      secret: config.jwtSecret,
      sign: { algorithm: 'HS256', expiresIn: config.tokenTtlSeconds },
      verify: { algorithms: ['HS256'], requiredClaims: ['exp', 'sid', 'sub'] },
    });
    app.decorateRequest('auth', null);
    const sessions = new SessionLookup(db);
    const verified = new VerifiedTokens();
    const apiTokens = new TokenLookup(db);
    app.decorate('signToken', (claims: TokenClaims) => app.jwt.sign(claims));

    async function authenticate(request: FastifyRequest, tokenAccess: TokenAccess): Promise<AuthContext> {
      const header = request.headers.authorization;
      // An API token is checked on every route (a valid one on a route without `token` is then 403, not 401).
      const apiToken = apiTokenOf(header, tokenAccess === 'basic');
      if (apiToken !== null) return apiTokens.authenticate(apiToken, request);
      if (!header?.startsWith('Bearer ')) throw unauthorized(Msg.authenticationInvalid);
      const token = header.slice(7);
      let claims = verified.get(token);
      if (!claims) {
        let checked: TokenClaims & { exp: number };
        try {
          checked = app.jwt.verify<TokenClaims & { exp: number }>(token);
        } catch {
          throw unauthorized(Msg.invalidOrExpiredToken);
        }
        // Signed by us, but claims are still data: a non-string sid or sub must not reach the query.
        if (typeof checked.sid !== 'string' || typeof checked.sub !== 'string' || typeof checked.exp !== 'number') throw unauthorized(Msg.invalidOrExpiredToken);
        verified.set(token, checked);
        claims = checked;
      }
      const found = await sessions.find(claims.sid, claims.sub);
      if (!found || found.revokedAt !== null || found.expiresAt < Date.now()) throw unauthorized(Msg.invalidOrExpiredToken);
      return { user: found.user, sessionId: claims.sid, actor: actorOf(found.user, found.membership), apiToken: null };
    }

    /** Tokens read, never write: a token reaches only the routes the contracts mark `token`. */
    function tokenAllowed(auth: AuthContext, token: TokenAccess): AuthContext {
      if (auth.apiToken && token === undefined) throw forbidden(ApiMsg.tokenReadOnly);
      // Its creator left the office (or the organization): the token reads nothing.
      if (auth.apiToken && auth.actor === null) throw forbidden();
      return auth;
    }

    app.decorate('identify', async (request: FastifyRequest, token?: TokenAccess) =>
      request.headers.authorization === undefined ? null : tokenAllowed(await authenticate(request, token), token));

    app.decorate('authorize', (access: Access, office?: OfficeAccess, token?: TokenAccess) => async (request: FastifyRequest, reply: FastifyReply) => {
      if (access === 'public') return;
      try {
        request.auth = tokenAllowed(await authenticate(request, token), token);
      } catch (err) {
        if (token === 'basic' && err instanceof HttpError && err.statusCode === 401) reply.header('www-authenticate', BASIC_CHALLENGE);
        throw err;
      }
      if (access === 'user') return;
      const { user } = request.auth;
      if (!user.verified) throw forbidden(ApiMsg.checkEmail);
      const { actor } = request.auth;
      // The actor, not the row, is what the handler receives: its role is the one checked.
      if (!actor || !(access as readonly string[]).includes(actor.role)) throw forbidden();
      // An office user's role inside the organization: a route names the office roles it serves.
      if (actor.role === Role.organization && !office?.includes(actor.officeRole)) throw forbidden();
    });
  },
  { name: 'auth', dependencies: ['context'] },
);
