import { StorageKey } from './storage-keys';
const KEY = StorageKey.deviceId;

/** A random id for this browser, sent as the `deviceid` header of a password change. */
export function deviceId(): string {
  try {
    const existing = localStorage.getItem(KEY);
    if (existing) return existing;
    const id = crypto.randomUUID();
    localStorage.setItem(KEY, id);
    return id;
  } catch {
    return 'unknown';
  }
}
