import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Role, type DeviceSummary } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import { toDeviceSummary } from '../teams/service.js';

/** How often each instance looks for supervisors still to be checked today. */
export const SYNC_DIGEST_EVERY_MS = 10 * 60_000;
/** The e-mail goes out from this UTC hour on (07:00 in Lagos), before the field day starts. */
export const SYNC_DIGEST_HOUR_UTC = 6;
/** The supervisor's field-user page (apps/pwa routes/paths.ts supervisorFieldUsers). */
const FIELD_USERS_PATH = '/survey-bird/supervisor/field-user/manage';
const DAY_MS = 86_400_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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

/**
 * The supervisors' daily e-mail: field users assigned to them whose phones have not
 * synced for their organization's number of days, or hold failed responses. One per supervisor per
 * UTC day, the pattern of earnings/return-digest.ts: from SYNC_DIGEST_HOUR_UTC, each supervisor not
 * yet checked today (and not opted out) is checked once and claimed as a `sync_digests` row (primary
 * key supervisor and day, insert-or-nothing, so two instances never both claim); a row with field
 * users to report keeps the mail's text with `mailed_at` null, a row with none is closed at once.
 * Then each unmailed row of the day is taken (`mailed_at` set where null: one sender) and mailed. A
 * run that stops after the claim leaves it to the next run, on any instance; a stop between taking
 * and recording the mail loses that day's mail rather than sending two.
 */
export class SyncDigest {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Claims and sends what is due at `now`; answers how many mails were sent. */
  async run(now = Date.now()): Promise<number> {
    if (new Date(now).getUTCHours() >= SYNC_DIGEST_HOUR_UTC) await this.claim(now);
    return this.send(now);
  }

  private async claim(now: number): Promise<void> {
    const day = dayOf(now);
    // Each (supervisor, field user) pair through active invitations on open surveys, for the
    // supervisors not checked today and not opted out.
    const pairs = await this.db.selectFrom('members as s')
      .innerJoin('members as f', 'f.supervisor_id', 's.id')
      .innerJoin('surveys as v', 'v.id', 's.survey_id')
      .innerJoin('organizations as o', 'o.id', 'v.organization_id')
      .select(['s.user_id as supervisor', 'f.user_id as fieldUser'])
      .select((eb) => [eb.fn.max('f.full_name').as('name'), eb.fn.min('o.stale_sync_days').as('days')])
      .where('s.role', '=', Role.supervisor).where('s.withdrawn_at', 'is', null).where('s.user_id', 'is not', null)
      .where('f.role', '=', Role.fieldUser).where('f.withdrawn_at', 'is', null).where('f.user_id', 'is not', null)
      .where('v.closed_at', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('sync_digests as d').select('d.user_id').whereRef('d.user_id', '=', 's.user_id').where('d.day', '=', day))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('supervisor_settings as p').select('p.user_id').whereRef('p.user_id', '=', 's.user_id').where('p.sync_digest', '=', 0))))
      .groupBy(['s.user_id', 'f.user_id'])
      .execute();
    if (pairs.length === 0) return;

    const fieldUsers = [...new Set(pairs.map((p) => p.fieldUser!))];
    const reports = new Map<string, Parameters<typeof toDeviceSummary>[0]>();
    for (let i = 0; i < fieldUsers.length; i += 500) {
      const rows = await this.db.selectFrom('device_status').select(['user_id', 'app_version', 'waiting', 'failed', 'photos_waiting', 'last_sync_at', 'reported_at']).where('user_id', 'in', fieldUsers.slice(i, i + 500)).execute();
      for (const r of rows) reports.set(r.user_id, [...(reports.get(r.user_id) ?? []), r]);
    }

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
      const text = lines.length ? this.text(lines, now) : '';
      await this.db.insertInto('sync_digests')
        .values({ user_id: supervisor, day, field_users: lines.length, text, created_at: now, mailed_at: lines.length ? null : now })
        .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
        .execute();
    }
  }

  private text(lines: DigestLine[], now: number): string {
    return [
      'Field users assigned to you whose phones need a look:',
      '',
      ...lines.map((l) => digestLine(l, now)),
      '',
      'A phone that has not synced may be off, out of data or out of space; failed responses wait for the field user to open the app and fix or discard them.',
      '',
      `See them in Survey Bird: ${this.publicUrl}${FIELD_USERS_PATH}`,
      'To stop this e-mail, turn off "Daily sync e-mail" in Settings in Survey Bird.',
    ].join('\n');
  }

  private async send(now: number): Promise<number> {
    let sent = 0;
    // Today's claims not yet mailed, this run's or one a stopped run left behind.
    const due = await this.db.selectFrom('sync_digests as d').innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.user_id', 'd.day', 'd.field_users', 'd.text', 'u.email']).where('d.day', '=', dayOf(now)).where('d.mailed_at', 'is', null).execute();
    for (const d of due) {
      const taken = await this.db.updateTable('sync_digests').set({ mailed_at: now }).where('user_id', '=', d.user_id).where('day', '=', d.day).where('mailed_at', 'is', null).executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) continue;
      const n = Number(d.field_users);
      await this.mailer.send({ to: d.email, subject: `Survey Bird: ${plural(n, 'field user')} to check`, text: d.text, link: `${this.publicUrl}${FIELD_USERS_PATH}` });
      sent++;
    }
    return sent;
  }

  start(): void {
    this.timer = setInterval(() => {
      this.run().catch((err: unknown) => this.log?.warn({ err: (err as Error).message }, 'sync digest run failed'));
    }, SYNC_DIGEST_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
