import { afterEach, expect, it, vi } from 'vitest';
import { requestPersistence, storageEstimate } from './storage';

afterEach(() => vi.unstubAllGlobals());

const stubStorage = (storage: Partial<StorageManager>) => vi.stubGlobal('navigator', { storage });

it('asks for persistent storage once, and reports the answer', async () => {
  const persist = vi.fn(async () => true);
  stubStorage({ persisted: async () => false, persist });
  expect(await requestPersistence()).toBe(true);
  stubStorage({ persisted: async () => true, persist });
  expect(await requestPersistence()).toBe(true);
  expect(persist).toHaveBeenCalledTimes(1);
  stubStorage({});
  expect(await requestPersistence()).toBe(false);
});

it('estimates usage and flags more than 90% used', async () => {
  stubStorage({ estimate: async () => ({ usage: 50, quota: 100 }) });
  expect(await storageEstimate()).toEqual({ usage: 50, quota: 100, nearlyFull: false });
  stubStorage({ estimate: async () => ({ usage: 91, quota: 100 }) });
  expect(await storageEstimate()).toEqual({ usage: 91, quota: 100, nearlyFull: true });
  stubStorage({});
  expect(await storageEstimate()).toBeUndefined();
});
