import { Role, type CurrentUser } from '@survey-bird/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const call = vi.fn();
const handleFailure = vi.fn();
vi.mock('../../api', async () => {
  const { ApiError } = await import('../../api/client');
  return { api: { call }, ApiError };
});
vi.mock('../../api/failures', () => ({ handleFailure }));

const { ApiError } = await import('../../api/client');
const { setAccounts } = await import('../../session/account-storage');
const { loadCurrentUser, session } = await import('./session');

const user = (role: string): CurrentUser => ({ email: 'ada@field.ng', role, fullName: 'Ada' }) as unknown as CurrentUser;
let n = 0;

/** A fresh token (the session keeps one user per token) remembered from an earlier visit. */
function signedIn(remembered: CurrentUser | null): string {
  const token = `tok-${++n}`;
  setAccounts([{ email: 'ada@field.ng', token }]);
  if (remembered) localStorage.setItem('survey-bird.last-user', JSON.stringify({ token, user: remembered }));
  return token;
}

/** A reply the test settles by hand, once the call is made (a remembered user's waits for a paint). */
function pending() {
  let settle: { ok: (v: unknown) => void; fail: (e: unknown) => void } | undefined;
  call.mockImplementationOnce(() => new Promise((ok, fail) => (settle = { ok, fail })));
  return () => vi.waitFor(() => settle ?? Promise.reject(new Error('GET /user not called yet')), { timeout: 10_000 });
}

beforeEach(() => {
  localStorage.clear();
  call.mockReset();
  handleFailure.mockReset();
});

describe('the session of a returning field user', () => {
  it('is ready with the remembered user at once; the same user from GET /user changes nothing', async () => {
    const remembered = user(Role.fieldUser);
    signedIn(remembered);
    const reply = pending();
    const loading = loadCurrentUser();
    expect(session.get()).toMatchObject({ status: 'ready', user: remembered });
    const shown = session.get();
    (await reply()).ok({ user: user(Role.fieldUser) });
    await loading;
    expect(session.get()).toBe(shown);
  });

  it('takes the server user when it changed', async () => {
    signedIn(user(Role.fieldUser));
    const reply = pending();
    const loading = loadCurrentUser();
    (await reply()).ok({ user: { ...user(Role.fieldUser), fullName: 'Ada B.' } });
    await loading;
    expect(session.get().user).toMatchObject({ fullName: 'Ada B.' });
  });

  it('is sent to sign in when the server refuses the token', async () => {
    signedIn(user(Role.fieldUser));
    const reply = pending();
    const loading = loadCurrentUser();
    (await reply()).fail(new ApiError({ route: 'currentUser', status: 401, msg: 'no', kind: 'reauth', args: {} }));
    await loading;
    expect(session.get()).toMatchObject({ status: 'failed', user: null });
    expect(handleFailure).toHaveBeenCalledTimes(1);
  });

  it('other roles wait for GET /user', async () => {
    signedIn(user(Role.organization));
    const reply = pending();
    const loading = loadCurrentUser();
    expect(session.get()).toMatchObject({ status: 'loading', user: null });
    (await reply()).ok({ user: user(Role.organization) });
    await loading;
    expect(session.get()).toMatchObject({ status: 'ready' });
  });
});
