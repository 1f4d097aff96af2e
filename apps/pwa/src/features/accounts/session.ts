import { StorageKey } from '../../session/storage-keys';
import { Role, type CurrentUser, type RouteName } from '@survey-bird/contracts';
import { useEffect } from 'react';
import { api, ApiError, officeMay } from '../../api';
import { handleFailure } from '../../api/failures';
import { afterNextPaint } from '../../lib/idle';
import { createStore, useStore } from '../../lib/store';
import { adoptAccountLanguage, markSent } from '../../lib/i18n';
import { activeAccount, subscribeAccounts, useAccounts } from '../../session/account-storage';

/**
 * The user behind the active account, loaded from GET /user once per token and kept in memory.
 * Switching accounts changes the token, which makes the next reader load the new user.
 */
export interface Session {
  token: string | undefined;
  user: CurrentUser | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
}

export const session = createStore<Session>({ token: undefined, user: null, status: 'idle' });
let inFlight: { token: string; promise: Promise<CurrentUser | null> } | undefined;

const USER_KEY = StorageKey.lastUser;

/** The last user GET /user returned, with its token, so the app can open without signal. */
function rememberUser(token: string, user: CurrentUser): void {
  try {
    localStorage.setItem(USER_KEY, JSON.stringify({ token, user }));
  } catch {
    // Storage full or blocked: the app then needs signal to open, as before.
  }
}

function rememberedUser(token: string): CurrentUser | null {
  try {
    const saved = JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as { token?: string; user?: CurrentUser } | null;
    return saved?.token === token && saved.user ? saved.user : null;
  } catch {
    return null;
  }
}

/** The account's language: the server's, unless this phone chose one offline that the server has not heard yet. */
function syncLanguage(token: string, user: CurrentUser): void {
  const unsent = adoptAccountLanguage(user.email, user.language);
  if (unsent) void api.call('setLanguage', { token, body: { language: unsent }, handleErrors: false }).then(() => markSent(user.email), () => undefined);
}

function syncToken(): void {
  const token = activeAccount()?.token;
  if (session.get().token !== token) session.set({ token, user: null, status: 'idle' });
}
subscribeAccounts(syncToken);

/** Loads the active account's user unless known; null when there is no account or the call failed. */
export function loadCurrentUser(force = false): Promise<CurrentUser | null> {
  syncToken();
  const { token, user, status } = session.get();
  if (!token) return Promise.resolve(null);
  if (!force && status === 'ready' && user) return Promise.resolve(user);
  if (inFlight?.token === token) return inFlight.promise;
  // A field user's screens run on the phone's data: they open at once as the user this token had
  // last time, while GET /user confirms it (a refused token still sends them to sign in).
  const remembered = force ? null : rememberedUser(token);
  const early = remembered?.role === Role.fieldUser ? remembered : null;
  session.set(early ? { token, user: early, status: 'ready' } : { token, user: null, status: 'loading' });
  const call = () => api.call('currentUser', { token, handleErrors: false });
  // Shown as the remembered user already: GET /user waits until the screen has painted.
  const promise = (early ? afterNextPaint().then(call) : call())
    .then(({ user: loaded }) => {
      rememberUser(token, loaded);
      syncLanguage(token, loaded);
      const same = early !== null && JSON.stringify(early) === JSON.stringify(loaded);
      // The same user again: no new object, so the screens do not render a second time.
      if (session.get().token === token && !same) session.set({ token, user: loaded, status: 'ready' });
      return loaded;
    })
    .catch((err: unknown) => {
      // No signal: a field user opening the app offline works on as the user this token had last time.
      const known = err instanceof ApiError && err.status === 0 ? rememberedUser(token) : null;
      if (err instanceof ApiError && !known) handleFailure(err.failure);
      if (session.get().token === token && session.get().user !== known) {
        session.set(known ? { token, user: known, status: 'ready' } : { token, user: null, status: 'failed' });
      }
      return known;
    })
    .finally(() => {
      if (inFlight?.promise === promise) inFlight = undefined;
    });
  inFlight = { token, promise };
  return promise;
}

/** The session of the active account, loading its user when unknown. */
export function useSession(): Session & { hasAccount: boolean } {
  const accounts = useAccounts();
  const current = useStore(session);
  const token = accounts[0]?.token;
  useEffect(() => {
    if (token) void loadCurrentUser();
    else syncToken();
  }, [token]);
  const fresh = current.token === token ? current : { token, user: null, status: 'idle' as const };
  return { ...fresh, hasAccount: token !== undefined };
}

/** Whether the signed-in office user's role may call the route (true for every other account). */
export function useOfficeMay(route: RouteName): boolean {
  const { user } = useSession();
  return officeMay(user?.officeRole, route);
}
