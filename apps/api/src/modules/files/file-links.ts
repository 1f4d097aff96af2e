import { createHmac, timingSafeEqual } from 'node:crypto';

// Loaded by the export's reader thread too (insight/export-reader.ts): node:crypto only.

/** A signed photo link lives this long unless FILE_LINK_TTL_DAYS says otherwise: one month of work on an export. */
export const DEFAULT_FILE_LINK_TTL_DAYS = 30;

/**
 * The key photo links are signed with: FILE_LINK_SECRET when set, else derived from the JWT
 * secret, so one secret per deployment (shared by every instance) serves both and rotating the JWT
 * secret also retires every link handed out.
 */
export function fileLinkKey(jwtSecret: string, fileLinkSecret?: string): string {
  return fileLinkSecret || createHmac('sha256', jwtSecret).update('file-links').digest('hex');
}

/** hex HMAC-SHA256 over the photo id and its expiry (unix seconds). */
export function fileLinkSignature(key: string, id: string, exp: number): string {
  return createHmac('sha256', key).update(`${id}\u0000${exp}`).digest('hex');
}

/** The query that grants `id` until `exp` (unix seconds). */
export function signedQuery(key: string, id: string, exp: number): string {
  return `exp=${exp}&sig=${fileLinkSignature(key, id, exp)}`;
}

export type LinkCheck = 'ok' | 'expired' | 'bad';

/** Whether exp and sig grant `id` at `nowMs`: a forged or altered link is 'bad', a genuine one past its expiry 'expired'. */
export function checkFileLink(key: string, id: string, exp: string, sig: string, nowMs = Date.now()): LinkCheck {
  if (!/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return 'bad';
  const expected = Buffer.from(fileLinkSignature(key, id, Number(exp)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return 'bad';
  return Number(exp) * 1000 > nowMs ? 'ok' : 'expired';
}

/** Expiry of links made now: `ttlDays` from `nowMs`, in unix seconds. */
export const linkExpiry = (ttlDays: number, nowMs = Date.now()): number => Math.floor(nowMs / 1000) + Math.round(ttlDays * 86_400);
