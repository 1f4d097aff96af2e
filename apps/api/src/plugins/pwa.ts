import { existsSync, readFileSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiMsg } from '@survey-bird/contracts';
import { errorBody } from '../http/errors.js';

/**
 * Client routes whose screen code the HTML response names, so it downloads with the page: the
 * field-user form and the inputs of its question types (a lazy chunk the form would otherwise ask
 * for only once it has rendered). A module's source path or a chunk's name (a group of
 * vite.config.ts); those missing from a build are skipped.
 */
const ROUTE_MODULES: Record<string, string[]> = {
  '/survey-bird/field-user': [
    'src/features/capture/QuestionsPage.tsx',
    'question-inputs',
  ],
};

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * `Link` preload headers per route from the build's Vite manifest: the route's chunks, their static
 * imports and CSS, minus what index.html already loads (crossorigin on the CSS, as Vite's loader
 * asks for it, or the browser downloads it twice). Without them the browser finds these files
 * only after the entry script has run and the router has matched; a field user on a slow network
 * waits that many round trips longer for the form. Empty when the manifest is missing.
 */
export function routePreloads(root: string): Map<string, string> {
  const out = new Map<string, string>();
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(readFileSync(`${root}/.vite/manifest.json`, 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    return out;
  }
  const byName = new Map(Object.entries(manifest).filter(([k]) => k.startsWith('_')).map(([k, c]) => [c.name, k]));
  const closure = (module: string, seen = new Set<string>()): Set<string> => {
    const key = manifest[module] ? module : (byName.get(module) ?? module);
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) closure(dep, seen);
    return seen;
  };
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  const loaded = entry ? closure(entry) : new Set<string>();
  for (const [route, modules] of Object.entries(ROUTE_MODULES)) {
    const all = new Set<string>();
    for (const module of modules) closure(module, all);
    const keys = [...all].filter((k) => !loaded.has(k));
    const links = [
      ...keys.map((k) => `</${manifest[k]!.file}>; rel=modulepreload`),
      ...[...new Set(keys.flatMap((k) => manifest[k]!.css ?? []))].map((css) => `</${css}>; rel=preload; as=style; crossorigin`),
    ];
    if (links.length > 0) out.set(route, links.join(', '));
  }
  return out;
}

/** Serves the built PWA; any non-API GET that is not a file gets index.html (client-side routes). */
export default fp(
  async function pwa(app: FastifyInstance, opts: { root: string | undefined }) {
    const root = opts.root;
    const hasPwa = root !== undefined && existsSync(`${root}/index.html`);
    const preloads = hasPwa ? routePreloads(root) : new Map<string, string>();
    if (hasPwa) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        // apps/pwa/scripts/compress.mjs writes .br and .gz beside each asset at build time.
        preCompressed: true,
        // setHeaders decides cache-control; the plugin's own (max-age=0) would overwrite it.
        cacheControl: false,
        setHeaders(res, path) {
          // The worker and the HTML must be revalidated so a new version is found; hashed assets are immutable.
          if (/\/assets\//.test(path)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
          else res.setHeader('cache-control', 'no-cache');
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (!hasPwa || path.startsWith('/api') || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return reply.status(404).send(errorBody(ApiMsg.routeNotFound, 404));
      }
      if (/\.[a-z0-9]+$/i.test(path)) return reply.status(404).type('text/plain').send('Not found');
      reply.header('cache-control', 'no-cache');
      const link = preloads.get(path.replace(/\/+$/, ''));
      if (link) reply.header('link', link);
      return reply.sendFile('index.html');
    });
  },
  { name: 'pwa' },
);
