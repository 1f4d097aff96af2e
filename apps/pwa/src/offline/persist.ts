/** Kept for the login page's import; the implementation is storage.ts's requestPersistence. */
export { requestPersistence as requestPersistentStorage } from './storage';
