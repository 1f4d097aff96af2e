import { type Answers, ApiMsg, type EarningsReply, UPLOAD_QUESTION_TYPES, Msg, PENDING_PHOTO_ANSWER, QuestionType, type ResponseChange, routes, type Survey, type SyncItem, type SyncResult } from '@survey-bird/contracts';
import { vi } from 'vitest';
import { db } from '../src/offline/db';
import { resetPhotoModeCache } from '../src/offline/photo-store';
import { resetVaultCache } from '../src/offline/vault';

/**
 * Test doubles for the offline layer's tests only: a fresh database per test and a fetch that
 * answers like the API's contract (idempotent per clientId, per-item batch results, multipart
 * photo uploads). Not imported by the app.
 */

export async function freshDb(): Promise<void> {
  db.close();
  await db.delete({ disableAutoOpen: false });
  await db.open();
  resetPhotoModeCache();
  resetVaultCache();
}

export interface LoggedRequest {
  method: string;
  path: string;
  token: string | undefined;
  body: unknown;
  form?: Record<string, FormDataEntryValue>;
}

/** 'network': the fetch throws; raw: a reply body that is not JSON (cut off). */
type Override = { status: number; msg?: string; retryAfter?: string; body?: unknown; raw?: string } | 'network';

export const ORG = 'org-1';

export function survey(id: string, questions: Survey['questions'], organizationId = ORG): Survey {
  return { _id: id, title: `Survey ${id}`, description: '', organization_id: organizationId, expectedResponseCount: null, questions, createdAt: '2026-01-01T00:00:00.000Z' };
}

export const q = (text: string, type: Survey['questions'][number]['type'] = QuestionType.text, compulsory = false, options: string[] = []) => ({ id: text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'q', text, type, compulsory, options });

const json = (status: number, data: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json', ...headers } });

export class FakeServer {
  readonly requests: LoggedRequest[] = [];
  /** token -> e-mail */
  readonly users = new Map<string, string>();
  /** e-mail -> role GET /user answers; a field user unless set. */
  readonly roles = new Map<string, string>();
  readonly surveys = new Map<string, Survey>();
  readonly datasets = new Map<string, string[]>();
  /** clientId -> stored response */
  readonly stored = new Map<string, { user: string; body: string; _id: string; answers: Answers }>();
  readonly uploads = new Map<string, string>();
  /** Answers for the next requests to a path, in order. */
  private readonly overrides = new Map<string, Override[]>();
  /** Per-clientId status for the next batch that contains it. */
  readonly itemOverrides = new Map<string, { status: number; msg: string }>();
  batchRoute = true;
  /** The changes feed, oldest first; its cursor is `{index}_`, pages of 2 so paging is exercised. */
  readonly changes: ResponseChange[] = [];
  /** GET /me/earnings; null answers 404 (a server without earnings). */
  earnings: EarningsReply | null = null;
  /** Called before answering; lets a test run something "during" a request. */
  onRequest?: (req: LoggedRequest) => Promise<void> | void;
  private nextId = 1;

  constructor(users: Record<string, string> = {}) {
    for (const [token, email] of Object.entries(users)) this.users.set(token, email);
  }

  override(path: string, ...answers: Override[]): void {
    this.overrides.set(path, [...(this.overrides.get(path) ?? []), ...answers]);
  }

  clearOverrides(path: string): void {
    this.overrides.delete(path);
  }

  paths(path?: string): LoggedRequest[] {
    return path ? this.requests.filter((r) => r.path === path) : this.requests;
  }

  /** How often each clientId went out in a batch or a respond call. */
  sentClientIds(): string[] {
    return this.requests.flatMap((r) => {
      if (r.path === routes.syncResponses.path) return (r.body as { responses: SyncItem[] }).responses.map((x) => x.clientId);
      if (r.path === routes.respond.path) return [(r.body as SyncItem).clientId];
      return [];
    });
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://sb.test');
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    const token = headers.get('authorization')?.replace(/^Bearer /, '');
    const req: LoggedRequest = { method, path: url.pathname, token, body: undefined };
    if (typeof init?.body === 'string') req.body = JSON.parse(init.body);
    else if (init?.body instanceof FormData) req.form = Object.fromEntries(init.body.entries());
    this.requests.push(req);
    await this.onRequest?.(req);

    const override = this.overrides.get(url.pathname)?.shift();
    if (override === 'network') throw new TypeError('Failed to fetch');
    if (override?.raw !== undefined) return new Response(override.raw, { status: override.status, headers: { 'content-type': 'application/json' } });
    if (override) return json(override.status, override.body ?? { msg: override.msg ?? 'overridden' }, override.retryAfter ? { 'retry-after': override.retryAfter } : {});

    const user = token ? this.users.get(token) : undefined;
    if (!user) return json(401, { msg: Msg.invalidOrExpiredToken });
    switch (`${method} ${url.pathname}`) {
      case `GET ${routes.currentUser.path}`:
        return json(200, { user: { _id: 'u', email: user, role: this.roles.get(user) ?? 'field_user', fullName: null, verified: true, organization_id: null } });
      case `POST ${routes.uploadImage.path}`:
        return this.upload(user, req.form ?? {});
      case `POST ${routes.syncResponses.path}`: {
        if (!this.batchRoute) return json(404, { msg: ApiMsg.routeNotFound });
        const items = (req.body as { responses: SyncItem[] }).responses;
        return json(200, { results: items.map((item) => this.itemOverride(item) ?? this.ingest(user, item)) });
      }
      case `POST ${routes.respond.path}`: {
        const result = this.ingest(user, req.body as SyncItem);
        return result.status === 200 ? json(200, { msg: result.msg, _id: result._id, clientId: result.clientId }) : json(result.status, { msg: result.msg });
      }
      case `GET ${routes.fieldUserSurveys.path}`: {
        const page = Number(url.searchParams.get('page') ?? '1');
        const all = [...this.surveys.values()];
        const size = 2;
        return json(200, { survey: all.slice((page - 1) * size, page * size), page, totalCount: all.length, hasNextPage: page * size < all.length, hasPreviousPage: page > 1 });
      }
      case `GET ${routes.myResponseChanges.path}`: {
        if (this.earnings === null) return json(404, { msg: ApiMsg.routeNotFound });
        const since = url.searchParams.get('since');
        const start = since ? Number(since.split('_')[0]) : 0;
        const page = this.changes.slice(start, start + 2);
        return json(200, { changes: page, cursor: `${start + page.length}_`, hasMore: start + page.length < this.changes.length });
      }
      case `GET ${routes.myEarnings.path}`:
        return this.earnings === null ? json(404, { msg: ApiMsg.routeNotFound }) : json(200, this.earnings);
      case `POST ${routes.reportDevice.path}`:
        return json(200, { msg: 'Device status saved' });
      case `GET ${routes.datasetExport.path}`: {
        const question = url.searchParams.get('question') ?? '';
        return json(200, { question, options: this.datasets.get(`${url.searchParams.get('survey_id')}|${question}`) ?? [] });
      }
      default:
        return json(404, { msg: ApiMsg.routeNotFound });
    }
  };

  private itemOverride(item: SyncItem): SyncResult | undefined {
    const o = this.itemOverrides.get(item.clientId);
    if (!o) return undefined;
    this.itemOverrides.delete(item.clientId);
    return { clientId: item.clientId, status: o.status, msg: o.msg };
  }

  private upload(user: string, form: Record<string, FormDataEntryValue>): Response {
    const question = String(form.question ?? '');
    const file = form[question];
    const s = this.surveys.get(String(form.survey_name));
    if (!s || !(file instanceof Blob)) return json(400, { msg: ApiMsg.uploadFieldsMissing });
    const type = s.questions.find((x) => x.text === question)?.type;
    if (!type || !UPLOAD_QUESTION_TYPES.includes(type)) return json(400, { msg: `"${question}" does not take a photo` });
    const key = `${user}|${String(form.clientId)}|${question}`;
    const ref = this.uploads.get(key) ?? `http://sb.test/api/v1/files/image/img${this.nextId++}`;
    this.uploads.set(key, ref);
    // A response stored before this photo gets its reference in place of the placeholder.
    const held = this.stored.get(String(form.clientId));
    if (held?.user === user && held.answers[question] === PENDING_PHOTO_ANSWER) held.answers[question] = ref;
    return json(200, { [question]: ref });
  }

  private ingest(user: string, item: SyncItem): SyncResult {
    const s = this.surveys.get(item.survey_id);
    if (!s) return { clientId: item.clientId, status: 404, msg: ApiMsg.surveyNotFound };
    if (s.organization_id !== item.organization_id) return { clientId: item.clientId, status: 400, msg: ApiMsg.organizationMismatch };
    for (const question of s.questions) if (question.compulsory && !Object.hasOwn(item.answers, question.text)) return { clientId: item.clientId, status: 400, msg: Msg.fillCompulsory };
    const answers = { ...item.answers };
    for (const p of item.photos ?? []) {
      const type = s.questions.find((x) => x.text === p.question)?.type;
      if (!type || !UPLOAD_QUESTION_TYPES.includes(type)) return { clientId: item.clientId, status: 400, msg: `"${p.question}" does not take a photo` };
      answers[p.question] = PENDING_PHOTO_ANSWER;
    }
    const body = JSON.stringify({ s: item.survey_id, a: Object.entries(answers).sort(), p: item.photos ?? [] });
    const existing = this.stored.get(item.clientId);
    if (existing) {
      return existing.user === user && existing.body === body
        ? { clientId: item.clientId, status: 200, msg: Msg.responseSent, _id: existing._id }
        : { clientId: item.clientId, status: 409, msg: ApiMsg.responseConflict };
    }
    const _id = `resp-${this.nextId++}`;
    this.stored.set(item.clientId, { user, body, _id, answers });
    return { clientId: item.clientId, status: 200, msg: Msg.responseSent, _id };
  }
}

/** A minimal Web Locks implementation (ifAvailable only), shared by every "context" of a test. */
export function fakeLocks() {
  const held = new Set<string>();
  return {
    held,
    async request<T>(name: string, options: { ifAvailable: boolean }, callback: (lock: unknown) => Promise<T>): Promise<T> {
      if (held.has(name)) {
        if (options.ifAvailable) return callback(null);
        throw new Error('only ifAvailable is implemented');
      }
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
      }
    },
  };
}

/** A small real JPEG-like payload (the fake server does not sniff bytes). */
export const photoBlob = (n: number, size = 1000) => new Blob([new Uint8Array(size).fill(n)], { type: 'image/jpeg' });

/**
 * vi.waitFor with room for a loaded CI machine: fake-indexeddb and the scheduler's timers share
 * two cores with the API suite, and the default second was seen to run out.
 */
export const eventually = <T>(check: () => T | Promise<T>): Promise<T> => vi.waitFor(check, { timeout: 10_000, interval: 20 });
