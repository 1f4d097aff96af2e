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

export default fp(
  async function securityHeaders(app: FastifyInstance) {
    app.addHook('onSend', async (_request, reply) => {
      reply.headers(SECURITY_HEADERS);
    });
  },
  { name: 'security-headers' },
);
