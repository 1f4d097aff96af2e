import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * A strict CSP that still lets the service worker, blob: photo previews, the camera (mediastream)
 * and data: icons work. Referrer-Policy no-referrer because reset and verify tokens travel in URLs.
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
  'permissions-policy': 'camera=(self), geolocation=(self), microphone=()',
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
export default fp(
  async function securityHeaders(app: FastifyInstance, opts: { publicUrl?: string }) {
    const hsts = opts.publicUrl?.startsWith('https://') ?? false;
    app.addHook('onSend', async (request, reply) => {
      reply.headers(SECURITY_HEADERS);
      if (hsts) reply.header('strict-transport-security', HSTS);
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
  },
  { name: 'security-headers' },
);
