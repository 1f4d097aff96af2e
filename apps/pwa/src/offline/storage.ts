/**
 * Asks the browser not to evict this origin's storage: queued responses and photos live only in
 * IndexedDB until the server has them. Browsers decide silently, so the answer is only returned.
 */
export async function requestPersistence(): Promise<boolean> {
  try {
    const storage = globalThis.navigator?.storage;
    if (!storage?.persist) return false;
    if (await storage.persisted()) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}

export interface StorageEstimate {
  usage: number;
  quota: number;
  /** Over 90% used: the UI should ask the user to sync before taking more photos. */
  nearlyFull: boolean;
}

/** undefined where the browser cannot tell. */
export async function storageEstimate(): Promise<StorageEstimate | undefined> {
  try {
    const estimate = await globalThis.navigator?.storage?.estimate?.();
    if (!estimate || estimate.quota === undefined || estimate.usage === undefined || estimate.quota <= 0) return undefined;
    return { usage: estimate.usage, quota: estimate.quota, nearlyFull: estimate.usage / estimate.quota > 0.9 };
  } catch {
    return undefined;
  }
}
