import { homeFor } from '../../lib/paths';
import { activeAccount } from '../../session/account-storage';
import { loadCurrentUser } from './session';

/**
 * The active account's home route (spec "Home route per role"), or null when no account is stored
 * or its user cannot be loaded. Without signal the user this token had last time stands in.
 */
export async function activeAccountHome(force = false): Promise<string | null> {
  if (!activeAccount()) return null;
  const user = await loadCurrentUser(force);
  return user ? homeFor(user.role) : null;
}
