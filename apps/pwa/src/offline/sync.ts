/** The sync engine's entry: started once per app by app-sync.ts, and by the service worker (sw-sync.ts). */
export { startSync } from './scheduler';
export { syncAccount } from './sync-engine';
export { handleBackgroundSync, SYNC_TAG } from './sw-sync';
export { requestPersistence } from './storage';
// Rows an earlier version kept in clear are sealed once the app has started (app-sync.ts).
export { sealClearRows } from './sealing';
