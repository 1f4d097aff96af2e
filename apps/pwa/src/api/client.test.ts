import { ApiMsg, Msg, routes } from '@survey-bird/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, classifyFailure, createApiClient, fillPath, withQuery, type Failure } from './client';
import { slimRoutes } from './slim-routes';

const json = (status: number, data: unknown) =>
  new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });

function setup(reply: Response | Error, token = 'tok') {
  const fetch = vi.fn<typeof globalThis.fetch>(async () => {
    if (reply instanceof Error) throw reply;
    return reply;
  });
  const failures: Failure[] = [];
  const api = createApiClient({ table: slimRoutes(routes), fetch, getToken: () => token, onFailure: (f) => failures.push(f) });
  return { api, fetch, failures };
}

describe('fillPath and withQuery', () => {
  it('fills and encodes :param segments', () => {
    expect(fillPath('/api/v1/field-user/:surveyId', { surveyId: 'a b/c' })).toBe('/api/v1/field-user/a%20b%2Fc');
    expect(fillPath('/api/v1/user', undefined)).toBe('/api/v1/user');
  });
  it('refuses a missing parameter', () => {
    expect(() => fillPath('/api/v1/user/:id', {})).toThrow(/id/);
  });
  it('appends defined query values only', () => {
    expect(withQuery('/x', { page: 2, searchQuery: 'ada lovelace', skip: undefined })).toBe('/x?page=2&searchQuery=ada+lovelace');
    expect(withQuery('/x', {})).toBe('/x');
  });
});

describe('classifyFailure', () => {
  it('sends token problems to login', () => {
    expect(classifyFailure('fieldUsers', 401, Msg.authenticationInvalid)).toBe('reauth');
    expect(classifyFailure('signOut', 401, Msg.invalidOrExpiredToken)).toBe('reauth');
    expect(classifyFailure('currentUser', 401, 'anything')).toBe('reauth');
  });
  it('offers a new verification link only for verification links', () => {
    expect(classifyFailure('confirmEmail', 400, ApiMsg.linkExpired)).toBe('linkExpired');
    expect(classifyFailure('resetPassword', 400, ApiMsg.resetLinkInvalid)).toBe('toast');
  });
  it('asks an unverified user to check the mail', () => {
    expect(classifyFailure('currentUser', 403, ApiMsg.checkEmail)).toBe('checkEmail');
  });
  it('toasts the rest', () => {
    expect(classifyFailure('login', 401, ApiMsg.wrongCredentials)).toBe('toast');
    expect(classifyFailure('login', 0, Msg.unexpectedError)).toBe('toast');
  });
});

describe('call', () => {
  it('sends JSON without a token to public routes', async () => {
    const { api, fetch } = setup(json(200, { user: { email: 'a@b.co', role: 'organization' }, msg: 'ok', token: 't' }));
    const reply = await api.call('login', { body: { email: 'a@b.co', password: 'pw' } });
    expect(reply.token).toBe('t');
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/v1/user/login');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"email":"a@b.co","password":"pw"}');
    expect(init?.headers).toMatchObject({ 'content-type': 'application/json' });
    expect(init?.headers).not.toHaveProperty('authorization');
  });

  it('fills params and query and sends the bearer token', async () => {
    const { api, fetch } = setup(json(200, { fieldUsers: [], totalDue: 0, totalCount: 0, page: 1, hasNextPage: false, hasPreviousPage: false }));
    await api.call('fieldUsers', { params: { surveyId: 's1' }, query: { page: 2, searchQuery: 'x' } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/v1/field-user/s1?page=2&searchQuery=x');
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
    expect(init?.headers).toMatchObject({ authorization: 'Bearer tok' });
  });

  it('uses an explicit token and sends no content-type without a body', async () => {
    const { api, fetch } = setup(json(200, { msg: Msg.accountSignedOut }));
    await api.call('signOut', { token: 'other' });
    const init = fetch.mock.calls[0]![1]!;
    expect(init.headers).toMatchObject({ authorization: 'Bearer other' });
    expect(init.headers).not.toHaveProperty('content-type');
  });

  it("reports the server's msg and throws", async () => {
    const { api, failures } = setup(json(401, { msg: ApiMsg.wrongCredentials }));
    const err = await api.call('login', { body: { email: 'a@b.co', password: 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(failures).toMatchObject([{ route: 'login', status: 401, msg: ApiMsg.wrongCredentials, kind: 'toast' }]);
  });

  it("falls back to 'unexpected error' for a reply without msg or no reply", async () => {
    const a = setup(new Response('<html>', { status: 502 }));
    await expect(a.api.call('currentUser')).rejects.toThrow(Msg.unexpectedError);
    const b = setup(new TypeError('Failed to fetch'));
    await expect(b.api.call('currentUser')).rejects.toThrow(Msg.unexpectedError);
    expect(b.failures[0]).toMatchObject({ status: 0, kind: 'toast' });
  });

  it('lets a call handle its own failures', async () => {
    const { api, failures } = setup(json(401, { msg: Msg.invalidOrExpiredToken }));
    await expect(api.call('signOut', { handleErrors: false })).rejects.toBeInstanceOf(ApiError);
    expect(failures).toEqual([]);
  });

  it('returns a Blob for binary routes', async () => {
    const { api } = setup(new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
    const blob = await api.call('organizationExport', { params: { surveyId: 's' } });
    expect(blob.size).toBe(3);
  });
});

describe('GETs in flight', () => {
  it('two identical GETs at once share one request; each reads the body', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, { survey: [], totalCount: 0, hasNextPage: false }));
    const api = createApiClient({ table: slimRoutes(routes), fetch, getToken: () => 'tok', onFailure: () => undefined });
    const [a, b] = await Promise.all([api.call('fieldUserSurveys', { query: { page: 1 } }), api.call('fieldUserSurveys', { query: { page: 1 } })]);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    // Settled: the next call asks again.
    await api.call('fieldUserSurveys', { query: { page: 1 } });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('does not share across tokens, queries or writes', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, { survey: [], totalCount: 0, hasNextPage: false, msg: 'ok' }));
    const api = createApiClient({ table: slimRoutes(routes), fetch, getToken: () => 'tok', onFailure: () => undefined });
    await Promise.all([
      api.call('fieldUserSurveys', { query: { page: 1 } }),
      api.call('fieldUserSurveys', { query: { page: 1 }, token: 'other' }),
      api.call('fieldUserSurveys', { query: { page: 2 } }),
    ]);
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
