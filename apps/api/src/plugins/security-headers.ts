import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * A strict CSP that still lets the service worker, blob: photo previews, the camera (mediastream)
 * and data: icons work; media-src blob: plays an audio audit clip fetched with the session. Referrer-Policy no-referrer because reset and verify tokens travel in URLs.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  // The microphone for audio audits, on this origin only (recording still needs the respondent's consent and the browser's permission).
  'permissions-policy': 'camera=(self), geolocation=(self), microphone=(self)',
} as const;

/** Two years, the preload list's minimum; subdomains too, since the app owns its host. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * Every reply gets SECURITY_HEADERS. API replies hold personal data (names, phone numbers, answers,
 * tokens): `no-store` keeps them out of the browser's and any shared proxy's cache, unless the
 * route chose its own rule (a photo: private and immutable, its address is its key). HSTS only
 * when the public address is https: over plain http a browser ignores it, and a local or demo
 * server must stay reachable.
 */
/**
 * The CSP with the map tile server's origin (MAP_TILE_URL) added to img-src: the maps draw its
 * tiles as images; nothing else of that origin is allowed.
 */
export function cspWithTiles(tileUrl: string | undefined): string {
  if (!tileUrl) return CSP;
  const origin = new URL(tileUrl.replace(/\{[a-z]\}/g, '0')).origin;
  return CSP.replace("img-src 'self' blob: data:", `img-src 'self' blob: data: ${origin}`);
}

export default fp(
  async function securityHeaders(app: FastifyInstance, opts: { publicUrl?: string; tileUrl?: string }) {
    const hsts = opts.publicUrl?.startsWith('https://') ?? false;
    const headers = { ...SECURITY_HEADERS, 'content-security-policy': cspWithTiles(opts.tileUrl) };
    app.addHook('onSend', async (request, reply) => {
      reply.headers(headers);
      if (hsts) reply.header('strict-transport-security', HSTS);
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
  },
  { name: 'security-headers' },
);
