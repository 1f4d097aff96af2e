import type { OfficeRole, RouteName } from '@survey-bird/contracts';
import table from './route-table';
import { activeAccount } from '../session/account-storage';
import { createApiClient } from './client';
import { handleFailure } from './failures';

/** The app's API client: the active account's token, failures handled per spec section 8. */
export const api = createApiClient({ table, getToken: () => activeAccount()?.token, onFailure: handleFailure });
export { ApiError } from './client';

/**
 * Whether an office user of this role may call the route (the route table's `office`); any other
 * account (no office role) is left to the route's own access. Screens hide what is refused.
 */
export function officeMay(officeRole: OfficeRole | null | undefined, route: RouteName): boolean {
  const office = (table[route] as { office?: readonly OfficeRole[] }).office;
  return !officeRole || !office || office.includes(officeRole);
}
