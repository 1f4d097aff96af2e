import table from './route-table';
import { activeAccount } from '../features/accounts/account-storage';
import { createApiClient } from './client';
import { handleFailure } from './failures';

/** The app's API client: the active account's token, failures handled per spec section 8. */
export const api = createApiClient({ table, getToken: () => activeAccount()?.token, onFailure: handleFailure });
export { ApiError } from './client';
