import {
  MSG_PREFIX,
  Msg,
  type RouteBody,
  type RouteName,
  type RouteParams,
  type RouteQuery,
  type RouteReply,
  type Routes,
} from '@survey-bird/contracts';
import type { z } from 'zod';
import type { RouteTable } from './slim-routes';
import { codeOf, msgOf, send } from './transport';
import { serverText } from '../lib/i18n';

/**
 * One typed client for every route of the contracts table: `api.call('login', { body })`.
 * Arguments and replies are inferred from the table; failures are classified here and acted on
 * by the `onFailure` hook the app wires in api/index.ts (toast, redirect to login, dialogs).
 */

type RouteHeaders<N extends RouteName> = Routes[N] extends { headers: infer H extends z.ZodType } ? z.input<H> : undefined;

/** A required key when the shape has required fields, optional when it has none, absent when the route has none. */
type Slot<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : Record<string, never> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

export interface CallOptions {
  /** Send this token instead of the active account's (signing out another stored account). */
  token?: string;
  /** false: the caller handles every failure itself (no toast, redirect or dialog). */
  handleErrors?: boolean;
  signal?: AbortSignal;
}

export type CallArgs<N extends RouteName> = Slot<'params', RouteParams<N>> &
  Slot<'body', RouteBody<N>> &
  Slot<'query', RouteQuery<N>> &
  Slot<'headers', RouteHeaders<N>> &
  (Routes[N] extends { multipart: true } ? { form: FormData } : { form?: undefined }) &
  CallOptions;

type ArgsTuple<N extends RouteName> = Record<string, never> extends CallArgs<N> ? [args?: CallArgs<N>] : [args: CallArgs<N>];

export type FailureKind = 'reauth' | 'linkExpired' | 'checkEmail' | 'toast';

export interface Failure {
  route: RouteName;
  /** 0 when the request never got an answer (offline, DNS, CORS). */
  status: number;
  msg: string;
  /** The reply's stable `code` (contracts message-codes.ts): what the user reads is its translation (lib/i18n.ts serverText). */
  code?: string;
  kind: FailureKind;
  /** The call's arguments (the link-expired dialog reads the verification id from them). */
  args: { params?: Record<string, unknown> };
}

export class ApiError extends Error {
  constructor(readonly failure: Failure) {
    // The words shown to the user: the translation of the reply's code, else its msg.
    super(serverText(failure.msg, failure.code));
    this.name = 'ApiError';
  }
  get status(): number {
    return this.failure.status;
  }
}

/** Spec section 8: which failures redirect, which open a dialog, which only toast. */
export function classifyFailure(route: RouteName, status: number, msg: string): FailureKind {
  if (msg.startsWith(MSG_PREFIX.checkEmail)) return 'checkEmail';
  // A reset link also answers 'link expired...'; only verification offers a new verification link.
  if (msg.startsWith(MSG_PREFIX.linkExpired) && (route === 'confirmEmail' || route === 'resendVerification')) return 'linkExpired';
  if (msg === Msg.authenticationInvalid || msg === Msg.invalidOrExpiredToken) return 'reauth';
  if (route === 'currentUser' && status === 401) return 'reauth';
  return 'toast';
}

export { fillPath, withQuery } from './transport';

/** The arguments as the implementation sees them, once the per-route typing has done its job. */
interface RawArgs extends CallOptions {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  body?: unknown;
  form?: FormData;
}

export interface ClientDeps {
  /** The contracts route table (slimmed: see route-table.ts). */
  table: RouteTable;
  getToken: () => string | undefined;
  onFailure: (failure: Failure) => void;
  fetch?: typeof fetch;
  baseUrl?: string;
}

const defaultFetch: typeof fetch = (input, init) => fetch(input, init);

/**
 * GETs in flight, per fetch function and URL + token: two screens (or the survey list and the
 * offline cache) asking for the same thing at the same moment share one request.
 */
const inFlight = new WeakMap<typeof fetch, Map<string, Promise<Response>>>();

type SharedInit = RequestInit & { headers: Record<string, string> };

function sharedGet(doFetch: typeof fetch, url: string, init: SharedInit): Promise<Response> {
  let pending = inFlight.get(doFetch);
  if (!pending) inFlight.set(doFetch, (pending = new Map<string, Promise<Response>>()));
  const key = `${url}\n${init.headers.authorization ?? ''}`;
  let shared = pending.get(key);
  if (!shared) {
    shared = doFetch(url, init);
    const forget = () => pending.delete(key);
    shared.then(forget, forget);
    pending.set(key, shared);
  }
  // Each caller reads its own copy of the body (test doubles may not be real Responses).
  return shared.then((res) => (typeof res.clone === 'function' ? res.clone() : res));
}

export function createApiClient(deps: ClientDeps) {
  const doFetch = deps.fetch ?? defaultFetch;

  async function call<N extends RouteName>(name: N, ...[maybeArgs]: ArgsTuple<N>): Promise<RouteReply<N>> {
    const args = (maybeArgs ?? {}) as RawArgs;
    const def = deps.table[name];
    const fail = (status: number, msg: string, code?: string): never => {
      const failure: Failure = { route: name, status, msg, code, kind: classifyFailure(name, status, msg), args };
      if (args.handleErrors !== false) deps.onFailure(failure);
      throw new ApiError(failure);
    };
    const token = args.token ?? (def.public ? undefined : deps.getToken());
    const shared = def.method === 'GET' && !def.binary && !args.signal;
    const sent = await send(name, { params: args.params, query: args.query, headers: args.headers, token, json: args.body, form: args.form, signal: args.signal }, {
      table: deps.table,
      baseUrl: deps.baseUrl,
      fetch: shared ? (url, init) => sharedGet(doFetch, url as string, init as SharedInit) : doFetch,
    });
    if (!sent.answered) {
      if ((sent.error as Error | undefined)?.name === 'AbortError') throw sent.error;
      return fail(0, Msg.unexpectedError, 'unexpectedError');
    }
    if (!sent.ok) return fail(sent.status, msgOf(sent.body), codeOf(sent.body));
    if (sent.body === undefined) return fail(sent.status, Msg.unexpectedError, 'unexpectedError');
    return sent.body;
  }

  return { call };
}

export type ApiClient = ReturnType<typeof createApiClient>;
