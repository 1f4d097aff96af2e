import { db, metaKey } from './db';

/**
 * "Send photos on Wi-Fi only", off by default: while it is on and the browser reports
 * a connection that is not Wi-Fi (or Ethernet), the sync run sends every response but holds the
 * photos that follow them. Where the browser does not report the type (the Network Information API
 * is Chromium's, and desktop Chromium leaves `type` out), photos are never held. Kept in IndexedDB
 * (`meta`), not localStorage, because the service worker's run reads it too.
 */
export async function photosOnWifiOnly(): Promise<boolean> {
  return (await db.meta.get(metaKey.photosWifiOnly))?.value === true;
}

export async function setPhotosOnWifiOnly(on: boolean): Promise<void> {
  await db.meta.put({ key: metaKey.photosWifiOnly, value: on });
}

/** The connection type the browser reports, if it does. */
export function connectionType(): string | undefined {
  return (globalThis.navigator as { connection?: { type?: string } } | undefined)?.connection?.type;
}

/** True when the setting holds photos back on the connection the phone has now. */
export async function holdingPhotos(): Promise<boolean> {
  const type = connectionType();
  if (type === undefined || type === 'wifi' || type === 'ethernet') return false;
  return photosOnWifiOnly();
}
