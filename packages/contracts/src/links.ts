import { API_BASE } from './constants.js';

// Free of zod, like constants.ts and roles.ts: the API's export threads import these three through
// their own entry points ('@survey-bird/contracts/links') and so never load the schemas.

/** Where the server serves stored photos: `${IMAGE_PATH}{file name}`. */
export const IMAGE_PATH = `${API_BASE}/files/image/`;

/** The value as a link target when it is one https URL and nothing else; null otherwise. */
export function httpsHref(value: string): string | null {
  if (!/^https:\/\/\S+$/i.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
