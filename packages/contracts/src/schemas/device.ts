import { z } from 'zod';

const count = (name: string) => z.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`).min(0, `${name} must be a whole number`).max(10_000_000, `${name} is too large`);
const bytes = (name: string) => z.number({ error: `${name} must be a whole number of bytes` }).int(`${name} must be a whole number of bytes`).min(0).max(Number.MAX_SAFE_INTEGER).nullable();

/**
 * Field users whose phone holds work and has not synced for this many days are highlighted, and
 * listed in their supervisors' daily e-mail. Each organization may set its own
 * (`PATCH /organization/settings`); this is the value of an organization that never did.
 */
export const DEFAULT_STALE_SYNC_DAYS = 3;
export const MAX_STALE_SYNC_DAYS = 90;

const staleSyncMsg = `staleSyncDays must be a whole number of days from 1 to ${MAX_STALE_SYNC_DAYS}`;
export const StaleSyncDays = z.number({ error: staleSyncMsg }).int(staleSyncMsg).min(1, staleSyncMsg).max(MAX_STALE_SYNC_DAYS, staleSyncMsg);

/**
 * The phones kept per field user: the most recently reported ones; an older phone ages out when a
 * sixth reports. A person uses one phone, at most two or three: 300 made-up deviceIds from one
 * account once inflated the team's waiting and failed counts.
 */
export const MAX_DEVICES_PER_USER = 5;
/** Reports per account per minute: a phone reports once a sync, a few a minute at the most. */
export const DEVICE_REPORTS_PER_MINUTE = 30;
export const DeviceMsg = {
  saved: 'Device status saved',
  tooManyReports: `Too many device reports from this account (more than ${DEVICE_REPORTS_PER_MINUTE} a minute); the phone reports again at its next sync`,
} as const;

/**
 * What a phone reports at each sync (field-team monitoring): the state of the caller's
 * work on this device. `lastSyncAt`: the end of its last sync that reached the server.
 */
export const DeviceReportBody = z.object({
  deviceId: z.string({ error: 'deviceId is required' }).trim().min(1, 'deviceId is required').max(100, 'deviceId is too long (max 100)'),
  appVersion: z.string().trim().max(40, 'appVersion is too long (max 40)').default(''),
  waiting: count('waiting'),
  failed: count('failed'),
  photosWaiting: count('photosWaiting'),
  storageUsed: bytes('storageUsed').default(null),
  storageQuota: bytes('storageQuota').default(null),
  lastSyncAt: z.iso.datetime({ offset: true, error: 'lastSyncAt must be an ISO date and time' }).nullable().default(null),
});
export type DeviceReportBody = z.input<typeof DeviceReportBody>;

export const DeviceReportReply = z.object({ msg: z.string() });
export type DeviceReportReply = z.infer<typeof DeviceReportReply>;

/** A field user's phones, summed (a person may use two): shown on the field-user pages. */
export const DeviceSummary = z.object({
  /** The latest sync any of their phones reported. */
  lastSyncAt: z.string().nullable(),
  /** When a phone last reported. */
  reportedAt: z.string(),
  waiting: z.number().int(),
  failed: z.number().int(),
  photosWaiting: z.number().int(),
  /** The app version of the phone that reported last. */
  appVersion: z.string(),
  devices: z.number().int(),
});
export type DeviceSummary = z.infer<typeof DeviceSummary>;

/** A supervisor's own settings: `syncDigest` is the daily e-mail about their field users' phones (on unless turned off). */
export const SupervisorSettings = z.object({ syncDigest: z.boolean() });
export type SupervisorSettings = z.infer<typeof SupervisorSettings>;

export const SupervisorSettingsBody = z.object({ syncDigest: z.boolean({ error: 'syncDigest must be true or false' }) });
export type SupervisorSettingsBody = z.infer<typeof SupervisorSettingsBody>;
