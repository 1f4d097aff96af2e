import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

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

/**
 * The token an invitation's registration link carries: only the invited mailbox receives it, so a
 * registration with it proves the password was chosen by the mailbox's owner (no confirmation mail
 * needed), and one without it cannot take an invited e-mail (account pre-hijacking).
 */
export function invitationToken(secret: string, email: string): string {
  return createHmac('sha256', secret).update(`invitation\u0000${email}`).digest('base64url');
}

export function isInvitationToken(secret: string, email: string, token: string | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(invitationToken(secret, email));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
