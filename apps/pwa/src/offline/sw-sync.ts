import type { StoredAccount } from '../session/account-list';
import { accountKey } from '../session/account-key';
import { mirroredAccounts } from './accounts';
import { syncAccount, type SyncSummary } from './sync-engine';

/** The Background Sync tag: the page registers it (scheduler.ts), the worker answers it. */
export const SYNC_TAG = 'survey-bird-outbox';

/**
 * The service worker's half of syncing, for its `sync` event (tag SYNC_TAG).
 * The worker has no localStorage: by default it syncs the accounts the page mirrored into
 * IndexedDB. The returned promise rejects while responses are still waiting for the network,
 * which asks the browser to fire the event again later (with its own backoff).
 */
export async function handleBackgroundSync(
  getAccounts: () => Promise<readonly StoredAccount[]> = mirroredAccounts,
  options: { baseUrl?: string; fetch?: typeof fetch } = {},
): Promise<SyncSummary[]> {
  const summaries: SyncSummary[] = [];
  for (const { email: user, token } of await getAccounts()) summaries.push(await syncAccount({ account: accountKey(user), token, ...options }));
  // Waiting for a sign-in or for another context's run is not a reason to be woken again.
  if (summaries.some((s) => s.remaining > 0 && !s.authRequired && !s.busy)) throw new Error('Responses are still waiting to be sent');
  return summaries;
}
