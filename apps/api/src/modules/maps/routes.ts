import { createWriteStream } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MapMsg, Msg } from '@survey-bird/contracts';
import { HttpError, badRequest, errorBody, notFound } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { PMTILES_HEADER_BYTES, readPmtilesHeader } from './pmtiles-header.js';

/** The responses map, the team map, and the organization's basemap (upload, and reads by range). */
export async function mapRoutes(app: FastifyInstance): Promise<void> {
  const { maps, uploads } = app.services;

  route(app, 'surveyMap', async (req) => {
    const scope = await maps.scope(req.auth.actor, req.params.id);
    return maps.map(scope, req.query);
  });

  route(app, 'teamMap', async (req) => {
    const scope = await maps.scope(req.auth.actor, req.params.id);
    return maps.teamMap(scope, req.query.page);
  });

  route(app, 'uploadBasemap', async (req) => {
    const { tempPath, name, size } = await receivePmtiles(req, uploads.tempPath(), app.config.maxBasemapBytes);
    const saved = await maps.saveBasemap(req.auth.actor.organizationId, tempPath, name, size);
    return { msg: MapMsg.basemapSaved, ...saved };
  });

  route(app, 'getBasemap', async (req, reply) => {
    const basemap = await maps.basemap(req.params.id);
    if (!basemap) throw notFound(MapMsg.basemapNotFound);
    const range = parseRange(req.headers.range, basemap.size);
    reply.header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=31536000, immutable').header('x-content-type-options', 'nosniff');
    if (range === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${basemap.size}`).send(errorBody(MapMsg.rangeNotSatisfiable, 416));
    }
    const [start, end] = range ?? [0, basemap.size - 1];
    const stream = basemap.size === 0 ? undefined : await basemap.open(start, end);
    if (!stream) throw notFound(MapMsg.basemapNotFound);
    if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${basemap.size}`);
    return reply.type('application/vnd.pmtiles').header('content-length', end - start + 1).send(stream);
  });
}

/**
 * One byte range of `Range: bytes=a-b`, `a-` or `-n` (RFC 9110); undefined for no header or one
 * this server does not honour (several ranges, another unit): the whole file, as the RFC allows.
 */
export function parseRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || (m[2] !== '' && Number(m[2]) < start)) return 'unsatisfiable';
  return [start, end];
}

/** Streams the one file part to a temp file, bounded by `maxBytes` (MapLimits.maxBasemapBytes), then checks its PMTiles header. */
async function receivePmtiles(req: FastifyRequest, tempPath: string, maxBytes: number): Promise<{ tempPath: string; name: string; size: number }> {
  let part;
  try {
    part = await req.file({ limits: { fileSize: maxBytes, files: 1 }, throwFileSizeLimit: false });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw badRequest(MapMsg.basemapMissing);
  }
  if (!part) throw badRequest(MapMsg.basemapMissing);
  let size = 0;
  try {
    await pipeline(
      part.file,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(tempPath, { flags: 'wx', mode: 0o600, flush: true }),
    );
  } catch {
    await unlink(tempPath).catch(() => undefined);
    throw badRequest(Msg.uploadIncomplete);
  }
  const refuse = async (err: HttpError) => {
    await unlink(tempPath).catch(() => undefined);
    return err;
  };
  if (part.file.truncated) throw await refuse(new HttpError(413, MapMsg.basemapTooLarge));
  if (size === 0) throw await refuse(badRequest(MapMsg.basemapMissing));
  const file = await open(tempPath, 'r');
  let head: Buffer;
  try {
    head = Buffer.alloc(PMTILES_HEADER_BYTES);
    await file.read(head, 0, PMTILES_HEADER_BYTES, 0);
  } finally {
    await file.close();
  }
  if (!readPmtilesHeader(head, size)) throw await refuse(new HttpError(415, MapMsg.notPmtiles));
  const name = (part.filename || 'basemap.pmtiles').slice(0, 200);
  return { tempPath, name, size };
}
