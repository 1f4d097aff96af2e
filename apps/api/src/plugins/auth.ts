import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type Access, ApiMsg, Msg, Role } from '@survey-bird/contracts';
import { HttpError, forbidden } from '../http/errors.js';
import type { UserRow } from '../db/schema.js';
import { SessionLookup } from '../modules/accounts/session-lookup.js';

export interface TokenClaims {
  sid: string;
  sub: string;
}

/** Who is calling: the user row as it is now (role changes apply at once) and the session. */
export interface AuthContext {
  user: UserRow;
  sessionId: string;
  /** Set for role organization: the organization this account owns. */
  organizationId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    authorize(access: Access): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
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
    app.decorate('signToken', (claims: TokenClaims) => app.jwt.sign(claims));

    async function authenticate(request: FastifyRequest): Promise<AuthContext> {
      const header = request.headers.authorization;
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
      const { user, organizationId } = found;
      return { user, sessionId: claims.sid, organizationId };
    }

    app.decorate('authorize', (access: Access) => async (request: FastifyRequest) => {
      if (access === 'public') return;
      request.auth = await authenticate(request);
      if (access === 'user') return;
      const { user } = request.auth;
      if (!user.verified) throw forbidden(ApiMsg.checkEmail);
      if (!(access as readonly string[]).includes(user.role)) throw forbidden();
      if (user.role === Role.organization && !request.auth.organizationId) throw forbidden();
    });
  },
  { name: 'auth', dependencies: ['context'] },
);
