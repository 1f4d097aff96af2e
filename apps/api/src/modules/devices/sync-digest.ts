import type { Kysely } from 'kysely';
import type { DeviceSummary } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import { DailyDigest, dayOf } from '../../jobs/daily-digest.js';
import type { Mail, Mailer } from '../mail/mailer.js';
import { mailWords, type MailWords } from '../mail/texts.js';
import { toDeviceSummary } from './device-summary.js';
import { DevicesRepository } from './repository.js';

/** How often each instance looks for supervisors still to be checked today. */
export const SYNC_DIGEST_EVERY_MS = 10 * 60_000;
/** The e-mail goes out from this UTC hour on (07:00 in Lagos), before the field day starts. */
export const SYNC_DIGEST_HOUR_UTC = 6;
/** The supervisor's field-user page (apps/pwa lib/paths.ts supervisorFieldUsers). */
const FIELD_USERS_PATH = '/survey-bird/supervisor/field-user/manage';
const DAY_MS = 86_400_000;

export interface DigestLine {
  name: string;
  device: DeviceSummary;
  /** The organization's threshold (the lowest, for a field user on surveys of two organizations). */
  staleSyncDays: number;
}

/** No sync for the organization's number of days, or failed responses on a phone. */
export function needsLook(device: DeviceSummary, staleSyncDays: number, now: number): boolean {
  if (device.failed > 0 || device.lastSyncAt === null) return true;
  return now - Date.parse(device.lastSyncAt) >= staleSyncDays * DAY_MS;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function digestLine({ name, device, staleSyncDays }: DigestLine, now: number): string {
  const parts: string[] = [];
  if (device.lastSyncAt === null) parts.push('has never synced');
  else {
    const days = Math.floor((now - Date.parse(device.lastSyncAt)) / DAY_MS);
    const last = `${device.lastSyncAt.slice(0, 16).replace('T', ' ')} UTC`;
    parts.push(days >= staleSyncDays ? `no sync for ${plural(days, 'day')} (last ${last})` : `last sync ${last}`);
  }
  if (device.waiting || device.photosWaiting) parts.push(`${plural(device.waiting, 'response')} and ${plural(device.photosWaiting, 'photo')} waiting on the phone`);
  if (device.failed) parts.push(`${plural(device.failed, 'failed response')}`);
  return `- ${name}: ${parts.join('; ')}`;
}

type DueDigest = Awaited<ReturnType<DevicesRepository['dueDigests']>>[number];

/**
 * The supervisors' daily e-mail: field users assigned to them whose phones have not synced for
 * their organization's number of days, or hold failed responses. One per supervisor per UTC day, in
 * the shape of jobs/daily-digest.ts: from SYNC_DIGEST_HOUR_UTC, each supervisor not yet checked
 * today (and not opted out) is checked once and claimed as a `sync_digests` row; a row with field
 * users to report keeps the mail's text with `mailed_at` null, a row with none is closed at once.
 * Then each unmailed row of the day is taken and mailed.
 */
export class SyncDigest extends DailyDigest<DueDigest> {
  private readonly repo: DevicesRepository;

  constructor(db: Kysely<Database>, mailer: Mailer, private readonly publicUrl: string) {
    super(mailer);
    this.repo = new DevicesRepository(db);
  }

  protected async claim(now: number): Promise<void> {
    if (new Date(now).getUTCHours() < SYNC_DIGEST_HOUR_UTC) return;
    const day = dayOf(now);
    const pairs = await this.repo.digestPairs(day);
    if (pairs.length === 0) return;

    const reports = new Map<string, Parameters<typeof toDeviceSummary>[0]>();
    for (const r of await this.repo.reportsOf([...new Set(pairs.map((p) => p.fieldUser!))])) reports.set(r.user_id, [...(reports.get(r.user_id) ?? []), r]);

    const bySupervisor = new Map<string, DigestLine[]>();
    for (const p of pairs) {
      const lines = bySupervisor.get(p.supervisor!) ?? [];
      bySupervisor.set(p.supervisor!, lines);
      // A field user whose phone never reported is not listed: nothing says it was ever used.
      const device = toDeviceSummary(reports.get(p.fieldUser!) ?? []);
      const staleSyncDays = Number(p.days);
      if (device && needsLook(device, staleSyncDays, now)) lines.push({ name: String(p.name), device, staleSyncDays });
    }

    for (const [supervisor, lines] of bySupervisor) {
      lines.sort((a, b) => (a.device.lastSyncAt ?? '').localeCompare(b.device.lastSyncAt ?? '') || a.name.localeCompare(b.name));
      const text = lines.length ? this.text(lines, now, mailWords(await this.repo.languageOf(supervisor))) : '';
      await this.repo.claimDigest({ user_id: supervisor, day, field_users: lines.length, text, created_at: now, mailed_at: lines.length ? null : now });
    }
  }

  /** The digest in the supervisor's language; each field user's line (names, figures, dates) stays as digestLine writes it. */
  private text(lines: DigestLine[], now: number, words: MailWords): string {
    return [
      words.syncIntro,
      '',
      ...lines.map((l) => digestLine(l, now)),
      '',
      words.syncExplain,
      '',
      words.syncSee(`${this.publicUrl}${FIELD_USERS_PATH}`),
      words.syncStop,
    ].join('\n');
  }

  protected due(now: number): Promise<DueDigest[]> {
    return this.repo.dueDigests(dayOf(now));
  }

  protected take(d: DueDigest, now: number): Promise<boolean> {
    return this.repo.takeDigest(d.user_id, d.day, now);
  }

  protected mail(d: DueDigest): Mail {
    const n = Number(d.field_users);
    return { to: d.email, subject: mailWords(d.language).syncSubject(n), text: d.text, link: `${this.publicUrl}${FIELD_USERS_PATH}` };
  }
}
