import type { DeviceReportBody } from '@survey-bird/contracts';
import { type AccountKey, db } from './db';
import { accountKey } from './db';
import { recordsWithPendingPhotos } from './photos/sync-photos';

/** Which phone and build reports: the page's device id and the app's version. */
export interface DeviceInfo {
  id: string;
  appVersion: string;
}

/**
 * What the phone tells the office at the end of a sync: the account's responses still on it
 * (waiting or sending), refused ones, their photos and those of sent responses not yet uploaded,
 * and the browser's storage use.
 */
export async function deviceReport(account: AccountKey, device: DeviceInfo, syncedAt: number): Promise<DeviceReportBody> {
  const key = accountKey(account);
  const [waiting, failed] = await db.transaction('r', db.outbox, async () => {
    const open = await db.outbox.where('[account+status]').anyOf([[key, 'queued'], [key, 'sending']]).primaryKeys();
    const refused = await db.outbox.where('[account+status]').equals([key, 'failed']).primaryKeys();
    return [open, refused] as const;
  });
  // Also the photos of responses the server already holds: they are still only on this phone.
  const photosAfter = (await recordsWithPendingPhotos(key)).reduce((n, r) => n + (r.photosPending?.length ?? 0), 0);
  const photosWaiting = (waiting.length ? await db.photos.where('owner').anyOf(waiting.map(String)).count() : 0) + photosAfter;
  const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => undefined);
  return {
    deviceId: device.id,
    appVersion: device.appVersion,
    waiting: waiting.length,
    failed: failed.length,
    photosWaiting,
    storageUsed: estimate?.usage === undefined ? null : Math.round(estimate.usage),
    storageQuota: estimate?.quota === undefined ? null : Math.round(estimate.quota),
    lastSyncAt: new Date(syncedAt).toISOString(),
  };
}
