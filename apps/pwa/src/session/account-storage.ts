import { useSyncExternalStore } from 'react';
import { StorageKey } from './storage-keys';
import { parseAccounts, serializeAccounts, type StoredAccount } from './account-list';

const ACCOUNTS_STORAGE_KEY = StorageKey.accounts;

/**
 * The stored-account list lives in localStorage (it must survive reloads and be shared by tabs).
 * Reads are cached by raw value; other tabs' changes arrive through the `storage` event.
 */
const listeners = new Set<() => void>();
let cache: { raw: string | null; accounts: StoredAccount[] } = { raw: null, accounts: [] };

function readRaw(): string | null {
  try {
    return localStorage.getItem(ACCOUNTS_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function getAccounts(): StoredAccount[] {
  const raw = readRaw();
  if (raw !== cache.raw) cache = { raw, accounts: parseAccounts(raw) };
  return cache.accounts;
}

export function activeAccount(): StoredAccount | undefined {
  return getAccounts()[0];
}

export function setAccounts(accounts: StoredAccount[]): void {
  try {
    if (accounts.length === 0) localStorage.removeItem(ACCOUNTS_STORAGE_KEY);
    else localStorage.setItem(ACCOUNTS_STORAGE_KEY, serializeAccounts(accounts));
  } catch {
    // Storage full or blocked: keep the list for this page so the user is not signed out mid-task.
    cache = { raw: serializeAccounts(accounts), accounts };
  }
  emit();
}

function emit(): void {
  for (const l of [...listeners]) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === ACCOUNTS_STORAGE_KEY || e.key === null) emit();
  });
}

export function useAccounts(): StoredAccount[] {
  return useSyncExternalStore(subscribe, getAccounts, getAccounts);
}

export { subscribe as subscribeAccounts };
