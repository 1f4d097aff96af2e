import type { Deps } from '../../plugins/deps.js';
import type { z } from 'zod';
import { DEVICE_REPORTS_PER_MINUTE, DeviceMsg, MAX_DEVICES_PER_USER, type DeviceReportBody, type SupervisorSettings } from '@survey-bird/contracts';
import type { CounterStore } from '../../counters/index.js';
import { HttpError } from '../../http/errors.js';
import { DevicesRepository } from './repository.js';

type Report = z.output<typeof DeviceReportBody>;

/** Field-team monitoring: what each phone reports at a sync. */
export class DevicesService {
  private readonly repo: DevicesRepository;
  private readonly counters: CounterStore;

  constructor(deps: Pick<Deps, 'counters' | 'db'>) {
    this.repo = new DevicesRepository(deps.db.kysely);
    this.counters = deps.counters;
  }

  /** 429 past DEVICE_REPORTS_PER_MINUTE from one account (counted across every API process); else stored. */
  async report(userId: string, body: Report, now = Date.now()): Promise<void> {
    const [count] = await this.counters.hit([`device-report:${userId}`], 60_000);
    if (count! > DEVICE_REPORTS_PER_MINUTE) throw new HttpError(429, DeviceMsg.tooManyReports);
    await this.repo.upsert({
      user_id: userId,
      device_id: body.deviceId,
      app_version: body.appVersion,
      waiting: body.waiting,
      failed: body.failed,
      photos_waiting: body.photosWaiting,
      storage_used: body.storageUsed,
      storage_quota: body.storageQuota,
      // A phone's clock may be ahead: a last sync "in the future" is the time the server heard it.
      last_sync_at: body.lastSyncAt === null ? null : Math.min(Date.parse(body.lastSyncAt), now),
      reported_at: now,
    }, MAX_DEVICES_PER_USER);
  }

  async supervisorSettings(userId: string): Promise<SupervisorSettings> {
    const row = await this.repo.supervisorSettings(userId);
    return { syncDigest: row ? Number(row.sync_digest) === 1 : true };
  }

  async updateSupervisorSettings(userId: string, body: SupervisorSettings): Promise<SupervisorSettings> {
    await this.repo.setSyncDigest(userId, body.syncDigest, Date.now());
    return this.supervisorSettings(userId);
  }
}
