import { createHash, randomBytes } from 'node:crypto';

/** A link token: the raw value goes in the e-mail, only its SHA-256 is stored. */
export function newLinkToken(): { token: string; id: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, id: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const VERIFY_TTL_MS = 48 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;
