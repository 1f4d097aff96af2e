import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiMsg, Msg, messageCode } from '@survey-bird/contracts';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { SECURITY_HEADERS } from '../plugins/security-headers.js';

/** An expected failure with the status and the words the client shows. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Sent with the reply (Retry-After on a 503). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** An error reply's body: the words and their stable code, which the phone translates (contracts message-codes.ts). */
export const errorBody = (msg: string, status: number): { msg: string; code: string } => ({ msg, code: messageCode(msg, status) });

export const badRequest = (msg: string) => new HttpError(400, msg);
export const forbidden = (msg: string = ApiMsg.forbidden) => new HttpError(403, msg);
export const notFound = (msg: string = ApiMsg.notFound) => new HttpError(404, msg);
export const conflict = (msg: string) => new HttpError(409, msg);

const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, Msg.payloadTooLarge],
  FST_REQ_FILE_TOO_LARGE: [413, Msg.payloadTooLarge],
  FST_FILES_LIMIT: [413, 'Too many files in one upload'],
  FST_PARTS_LIMIT: [413, 'Too many parts in one upload'],
  FST_FIELDS_LIMIT: [413, 'Too many fields in one upload'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'Send the image as multipart/form-data'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type; send JSON'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Invalid content length'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The request body is empty'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'The request body is not valid JSON'],
  FST_ERR_BAD_URL: [400, 'Malformed URL'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'The URL is too long'],
};

/**
 * Errors the router raises before any route or error handler runs (a malformed or over-long path
 * segment). Without this, Fastify answers them itself with a body that echoes the URL.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, msg] = FASTIFY_CODES[err.code] ?? [400, 'Malformed URL'];
  // The router answers from outside every plugin, so the onSend hooks (security headers) do not run.
  void reply.status(status).headers(SECURITY_HEADERS).header('cache-control', 'no-store').send(errorBody(msg, status));
}

/** PostgreSQL refuses NUL in text (SQLite keeps it): no route accepts it, so both engines answer alike. */
export const NUL_IN_TEXT = 'Text must not contain NUL characters';

/** True when a NUL character hides anywhere in a parsed body, query or params value. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  // Plain loops: this runs on every request body, and entries()/some() allocate per level.
  if (Array.isArray(value)) {
    for (const v of value) if (containsNul(v, depth + 1)) return true;
    return false;
  }
  for (const k of Object.keys(value)) if (k.includes('\u0000') || containsNul((value as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

/** Errors from the storage layer that mean "try again later", not "you did something wrong". */
export function storageStatus(err: { code?: string; message?: string }): [number, string] | null {
  const code = err.code ?? '';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === '53100') return [507, ApiMsg.storageFull];
  // Extended codes too: SQLITE_BUSY_SNAPSHOT (a write after a read that another connection overtook), SQLITE_IOERR_WRITE...
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code.startsWith('SQLITE_IOERR')) return [503, ApiMsg.serviceUnavailable];
  // 40P01, 40001: a deadlock or serialization failure PostgreSQL broke by aborting this request; a retry succeeds.
  if (['40P01', '40001', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '53300'].includes(code)) return [503, ApiMsg.serviceUnavailable];
  if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|ECONNREFUSED/.test(err.message ?? '')) return [503, ApiMsg.serviceUnavailable];
  return null;
}

/**
 * The client hung up (a phone losing signal mid-upload): Node reports that as ECONNRESET, the same
 * code a dropped database connection has. It is told apart by the request's own socket, closed
 * here and open when the database is the one that failed. Not by `request.raw.destroyed`: a
 * request whose body has been read whole is destroyed too (autoDestroy), so a PostgreSQL reset
 * during a POST would pass for a hang-up (pg-connection-loss.test.ts saw 400s).
 */
function clientClosed(request: FastifyRequest, err: { code?: string; message?: string }): boolean {
  const code = err.code ?? '';
  if (code !== 'ECONNRESET' && code !== 'EPIPE' && code !== 'ECONNABORTED' && err.message !== 'aborted') return false;
  return request.raw.socket?.destroyed === true;
}

/** Every failure becomes `{ msg }` with the right status; a 5xx never carries a stack or internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  // Every 4xx and 5xx `{ msg }`, from the handler below or a route's own reply, gains its `code`.
  app.addHook('preSerialization', async (_request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || payload === null || typeof payload !== 'object') return payload;
    const body = payload as { msg?: unknown; code?: unknown };
    if (typeof body.msg !== 'string' || typeof body.code === 'string') return payload;
    return { ...body, code: messageCode(body.msg, reply.statusCode) };
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.status(400).send(errorBody(err.validation[0]?.message ?? 'Invalid request', 400));
    }
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.statusCode).send(errorBody(err.message, err.statusCode));
    }
    const known = FASTIFY_CODES[err.code];
    if (known) return reply.status(known[0]).send(errorBody(known[1], known[0]));
    // 22021: a NUL that reached PostgreSQL by a path the route check does not see (multipart fields).
    if (err.code === '22021') return reply.status(400).send(errorBody(NUL_IN_TEXT, 400));
    if (clientClosed(request, err)) {
      // Nobody reads this reply; not a storage outage and not worth a warning.
      request.log.debug({ code: err.code }, 'client closed the connection');
      return reply.status(400).send(errorBody('The request was cut off', 400));
    }
    const storage = storageStatus(err);
    if (storage) {
      request.log.warn({ code: err.code }, 'storage unavailable');
      if (storage[0] === 503) reply.header('retry-after', '5');
      return reply.status(storage[0]).send(errorBody(storage[1], storage[0]));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(errorBody(err.message, err.statusCode));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody(Msg.unexpectedError, 500));
  });

}
