// Shared by the page and its service worker, free of imports so the page's side loads nothing more.

/** The page tells its worker which account is active (offline/service-worker.ts postSessionToken). */
export const SESSION_TOKEN = 'SESSION_TOKEN';
/** Photos this browser fetched with a session, kept for offline viewing; deleted when an account is removed. */
export const PHOTO_CACHE = 'sb-photos-v1';
/**
 * Basemap archives (PMTiles) a field user chose to keep on the phone, whole, under their
 * `/api/v1/basemap/:id` address; the worker answers the map's range requests from them.
 */
export const BASEMAP_CACHE = 'sb-basemaps-v1';
