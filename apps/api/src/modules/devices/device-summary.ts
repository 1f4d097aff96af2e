import type { DeviceSummary } from '@survey-bird/contracts';
import type { DeviceStatusTable } from '../../db/schema.js';
import { iso } from '../../lib/time.js';

export type DeviceReportRow = Pick<DeviceStatusTable, 'user_id' | 'app_version' | 'waiting' | 'failed' | 'photos_waiting' | 'last_sync_at' | 'reported_at'>;

/** One person's phones summed: work waiting and failed on all of them, the latest sync and report. */
export function toDeviceSummary(reports: DeviceReportRow[]): DeviceSummary | null {
  if (reports.length === 0) return null;
  const latest = reports.reduce((a, b) => (Number(b.reported_at) > Number(a.reported_at) ? b : a));
  const syncs = reports.flatMap((d) => (d.last_sync_at === null ? [] : [Number(d.last_sync_at)]));
  return {
    lastSyncAt: syncs.length ? iso(Math.max(...syncs)) : null,
    reportedAt: iso(Number(latest.reported_at)),
    waiting: reports.reduce((n, d) => n + Number(d.waiting), 0),
    failed: reports.reduce((n, d) => n + Number(d.failed), 0),
    photosWaiting: reports.reduce((n, d) => n + Number(d.photos_waiting), 0),
    appVersion: latest.app_version,
    devices: reports.length,
  };
}
