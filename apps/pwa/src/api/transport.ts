import { Msg, type RouteName, type RouteReply } from '@survey-bird/contracts';
import type { RouteTable } from './slim-routes';

/**
 * The one HTTP exchange of the PWA: the typed client (client.ts, which adds toasts, redirects and
 * dialogs on top) and the sync engine (offline/sync-engine.ts, in the page and the service worker)
 * both send through `send`. It has no UI side effects and never throws for an HTTP or network
 * failure: the caller decides what a status means. Replies are typed by the contracts table; they
 * are not parsed with zod, which would put the schemas (about 25 KB gzipped) on the form's route.
 */

export interface SendArgs {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  /** Sent as `Bearer`; none for a public route. */
  token?: string;
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
}

export interface TransportDeps {
  table: RouteTable;
  fetch: typeof fetch;
  baseUrl?: string;
}

export type Sent<T> =
  /** The network failed (offline, DNS, timeout, abort): nothing is known of the server. */
  | { answered: false; status: 0; error: unknown }
  /** The server answered. `body` is the JSON reply (a Blob for a binary route), undefined when unreadable; `unreadable` says why. */
  | { answered: true; status: number; ok: boolean; body: T | undefined; unreadable?: unknown; headers: Headers };

/** A path, query or header value as text: numbers and booleans as written, anything else as JSON. */
const scalar = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));

/** '/api/v1/field-user/:surveyId' + { surveyId: 'a b' } -> '/api/v1/field-user/a%20b'. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_]\w*)/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined || value === null || value === '') throw new Error(`Missing path parameter "${key}" for ${path}`);
    return encodeURIComponent(scalar(value));
  });
}

export function withQuery(path: string, query: Record<string, unknown> | undefined): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.set(key, scalar(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The `{ msg }` of an error reply, or the spec's generic text. */
export function msgOf(body: unknown): string {
  const msg = (body as { msg?: unknown } | null | undefined)?.msg;
  return typeof msg === 'string' && msg !== '' ? msg : Msg.unexpectedError;
}

/** A reply's stable error code, when it has one (every API error does: `{ msg, code }`). */
export function codeOf(body: unknown): string | undefined {
  const code = (body as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

export async function send<N extends RouteName>(name: N, args: SendArgs, deps: TransportDeps): Promise<Sent<RouteReply<N>>> {
  const def = deps.table[name];
  const url = (deps.baseUrl ?? '') + withQuery(fillPath(def.path, args.params), args.query);
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [k, v] of Object.entries(args.headers ?? {})) if (v !== undefined && v !== null) headers[k] = scalar(v);
  if (args.token) headers.authorization = `Bearer ${args.token}`;
  let body: BodyInit | undefined;
  if (args.form) body = args.form;
  else if (args.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(args.json);
  }
  let res: Response;
  try {
    res = await deps.fetch(url, { method: def.method, headers, body, signal: args.signal });
  } catch (error) {
    return { answered: false, status: 0, error };
  }
  try {
    const reply = (def.binary && res.ok ? await res.blob() : await res.json()) as RouteReply<N>;
    return { answered: true, status: res.status, ok: res.ok, body: reply, headers: res.headers };
  } catch (unreadable) {
    return { answered: true, status: res.status, ok: res.ok, body: undefined, unreadable, headers: res.headers };
  }
}
