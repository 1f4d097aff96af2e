import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Msg } from '@survey-bird/contracts';

/** Serves the built PWA; any non-API GET that is not a file gets index.html (client-side routes). */
export default fp(
  async function pwa(app: FastifyInstance, opts: { root: string | undefined }) {
    const root = opts.root;
    const hasPwa = root !== undefined && existsSync(`${root}/index.html`);
    if (hasPwa) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        // apps/pwa/scripts/compress.mjs writes .br and .gz beside each asset at build time.
        preCompressed: true,
        setHeaders(res, path) {
          // The worker and the HTML must be revalidated so a new version is found; hashed assets are immutable.
          if (/\/assets\//.test(path)) res.header('cache-control', 'public, max-age=31536000, immutable');
          else res.header('cache-control', 'no-cache');
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (!hasPwa || path.startsWith('/api') || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return reply.status(404).send({ msg: Msg.routeNotFound });
      }
      if (/\.[a-z0-9]+$/i.test(path)) return reply.status(404).type('text/plain').send('Not found');
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    });
  },
  { name: 'pwa' },
);
