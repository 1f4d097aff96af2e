import { useSyncExternalStore } from 'react';

/**
 * The survey key the office opened in this tab: kept in memory only (never in storage, never
 * sent), so closing or reloading the tab forgets it. One at a time: opening another replaces it.
 */
export interface OpenedKey {
  kid: string;
  privateKey: CryptoKey;
  fileName: string;
}

let opened: OpenedKey | null = null;
const listeners = new Set<() => void>();

export function setOpenedKey(key: OpenedKey | null): void {
  opened = key;
  for (const l of listeners) l();
}

export const openedKey = (): OpenedKey | null => opened;

export function useOpenedKey(): OpenedKey | null {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, openedKey);
}
