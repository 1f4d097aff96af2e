import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A request slower than this is logged whatever the level. */
export const SLOW_REQUEST_MS = 1000;
const REDACTED = '[redacted]';

/**
 * The URL as the log may show it. A route of the contracts table shows its path with the
 * parameters it declares sensitive (photo addresses, link tokens) replaced, and only the query
 * fields its schema knows, sensitive ones replaced too. Any other request (a static file, a page of
 * the PWA such as /confirm-email/<token>, a URL no route matched) shows its route pattern, or its
 * first path segment and its query's field names.
 */
export function loggableUrl(request: FastifyRequest): string {
  const [path = '', query] = request.url.split('?', 2) as [string, string | undefined];
  const sensitive = request.routeOptions.config?.sensitive;
  if (!sensitive) {
    const pattern = request.routeOptions.url;
    const shown = pattern && !pattern.includes('*') ? pattern : path.replace(/^(\/[^/]*)\/.+$/, `$1/${REDACTED}`);
    return shown + redactQuery(query, () => true);
  }
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const pattern = request.routeOptions.url ?? path;
  const shown = pattern.replace(/:(\w+)/g, (_, name: string) => (sensitive.includes(name) ? REDACTED : encodeURIComponent(String(params[name] ?? ''))));
  const known = request.routeOptions.schema?.querystring as { shape?: Record<string, unknown> } | undefined;
  return shown + redactQuery(query, (key) => sensitive.includes(key) || !known?.shape || !Object.hasOwn(known.shape, key));
}

function redactQuery(query: string | undefined, hide: (key: string) => boolean): string {
  if (!query) return '';
  const parts = query.split('&').map((pair) => {
    const key = pair.split('=', 1)[0] ?? '';
    return hide(safeDecode(key)) ? `${key}=${REDACTED}` : pair;
  });
  return `?${parts.join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * One line per request, after the reply: at `warn` for a 5xx or a request slower than
 * SLOW_REQUEST_MS, otherwise at `debug` (LOG_LEVEL=debug shows every request). Fastify's own
 * request logging is off: at `info` it wrote two lines for every request, thousands an hour.
 */
export function registerRequestLog(app: FastifyInstance): void {
  // A callback hook, not an async one: this runs for every request, ingest's included.
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    const notable = status >= 500 || ms > SLOW_REQUEST_MS;
    if (notable || (request.log as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.('debug')) {
      const line = { method: request.method, url: loggableUrl(request), statusCode: status, responseTime: Math.round(ms) };
      if (notable) request.log.warn(line, status >= 500 ? 'request failed' : 'slow request');
      else request.log.debug(line, 'request completed');
    }
    done();
  });
}
