import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { OfficeRole, Role, type Answers } from '@survey-bird/contracts';
import type { NewResponse } from '../db/schema.js';
import { hashPassword } from '../modules/accounts/passwords.js';
import { searchTextOf } from '../modules/responses/search-text.js';
import { DEMO_ANALYST, DEMO_ORG, FIELD_USERS, OUTLET_NAMES, REMARKS, RETAIL_QUESTIONS, SUPERVISORS, WARDS, WATER_QUESTIONS } from './demo-data.js';
import { rng } from './random.js';

export interface DemoLogin {
  role: string;
  email: string;
  password: string;
}

const DAY = 86_400_000;

/**
 * Seeds the demo on an empty database only (no organization yet) and keeps its logins in
 * DATA_DIR/demo-logins.json, so every start can print them. Returns null when there is no demo.
 */
export async function seedDemoIfEmpty(app: FastifyInstance): Promise<DemoLogin[] | null> {
  const file = join(app.config.dataDir, 'demo-logins.json');
  const k = app.db.kysely;
  const anyOrg = await k.selectFrom('organizations').select('id').executeTakeFirst();
  if (anyOrg) return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DemoLogin[]) : null;

  const password = `demo-${randomBytes(6).toString('base64url')}`;
  const hash = await hashPassword(password, app.config.scryptN);
  const now = Date.now();
  const logins: DemoLogin[] = [];
  const random = rng(20261122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  await k.transaction().execute(async (trx) => {
    const addUser = async (email: string, role: string, fullName: string) => {
      const id = randomUUID();
      await trx.insertInto('users').values({ id, email, password_hash: hash, role, verified: 1, full_name: fullName, created_at: now - 75 * DAY }).execute();
      logins.push({ role, email, password });
      return id;
    };

    const hasAdmin = await trx.selectFrom('users').select('id').where('role', '=', Role.masterAdmin).executeTakeFirst();
    if (!hasAdmin) await addUser('admin@demo.surveybird.ng', Role.masterAdmin, 'Demo admin');

    const orgId = randomUUID();
    await trx.insertInto('organizations').values({ id: orgId, name: DEMO_ORG.name, email: DEMO_ORG.email, created_at: now - 75 * DAY }).execute();
    await trx.insertInto('office_users').values({ id: randomUUID(), organization_id: orgId, email: DEMO_ORG.email, role: OfficeRole.owner, survey_ids: null, invited_by: null, created_at: now - 75 * DAY }).execute();
    await addUser(DEMO_ORG.email, Role.organization, DEMO_ORG.name);
    await trx.insertInto('office_users').values({ id: randomUUID(), organization_id: orgId, email: DEMO_ANALYST.email, role: OfficeRole.analyst, survey_ids: null, invited_by: null, created_at: now - 60 * DAY }).execute();
    await addUser(DEMO_ANALYST.email, Role.organization, DEMO_ANALYST.fullName);

    const retailId = randomUUID();
    const waterId = randomUUID();
    await trx.insertInto('surveys').values([
      { id: waterId, organization_id: orgId, title: 'Household water access', description: 'Where households in Ikorodu get their water, and how far they walk.', expected_response_count: 150, questions: JSON.stringify(WATER_QUESTIONS), created_at: now - 80 * DAY },
      { id: retailId, organization_id: orgId, title: 'Retail outlet audit - Lagos', description: 'Visit each outlet on your route, photograph the shelf and record what is in stock.', expected_response_count: 600, questions: JSON.stringify(RETAIL_QUESTIONS), created_at: now - 72 * DAY },
    ]).execute();
    // Each survey's first version, as a survey made in the builder has (the builder edits from it).
    for (const v of await trx.selectFrom('surveys').selectAll().where('id', 'in', [waterId, retailId]).execute()) {
      await trx.insertInto('survey_versions').values({ survey_id: v.id, version: 1, title: v.title, description: v.description, questions: v.questions, created_at: v.created_at, form_settings: v.form_settings ?? null }).execute();
    }
    await trx.insertInto('dataset_options').values(WARDS.map((value, position) => ({ survey_id: retailId, question: 'Ward', position, value, value_lower: value.toLowerCase() }))).execute();

    const supervisorMembers: string[] = [];
    for (const s of SUPERVISORS) {
      const userId = await addUser(s.email, Role.supervisor, s.fullName);
      const id = randomUUID();
      supervisorMembers.push(id);
      await trx.insertInto('members').values({ id, survey_id: retailId, organization_id: orgId, role: Role.supervisor, email: s.email, user_id: userId, full_name: s.fullName, phone_number: s.phone, bank: s.bank, account_number: s.account, account_name: s.fullName, rate: 0, supervisor_id: null, created_at: now - 70 * DAY }).execute();
    }

    const responses: NewResponse[] = [];
    const weights = FIELD_USERS.flatMap((f, i) => Array<number>(f.weight).fill(i));
    const members: { id: string; userId: string; f: (typeof FIELD_USERS)[number] }[] = [];
    for (const f of FIELD_USERS) {
      const userId = await addUser(f.email, Role.fieldUser, f.fullName);
      const id = randomUUID();
      members.push({ id, userId, f });
      await trx.insertInto('members').values({ id, survey_id: retailId, organization_id: orgId, role: Role.fieldUser, email: f.email, user_id: userId, full_name: f.fullName, phone_number: f.phone, bank: f.bank, account_number: f.account, account_name: f.fullName, rate: f.rate, supervisor_id: f.supervisor === null ? null : supervisorMembers[f.supervisor]!, created_at: now - 70 * DAY }).execute();
    }

    for (let i = 0; i < 420; i++) {
      // More work in recent weeks, during working hours.
      const daysAgo = Math.floor(Math.pow(random(), 1.6) * 69);
      const created = now - daysAgo * DAY - Math.floor(random() * 10 * 3_600_000);
      const m = members[pick(weights)]!;
      const answers: Answers = {
        'Outlet name': pick(OUTLET_NAMES),
        'Outlet type': pick(['Kiosk', 'Supermarket', 'Open market stall', 'Pharmacy']),
        Ward: pick(WARDS),
        'Products in stock': ['Rice', 'Beans', 'Garri', 'Palm oil', 'Sugar'].filter(() => random() > 0.45),
        'Outlet location': `${(6.45 + random() * 0.2).toFixed(5)}, ${(3.3 + random() * 0.3).toFixed(5)} (±${Math.ceil(random() * 25)} m)`,
      };
      const remark = pick(REMARKS);
      if (remark) answers.Remarks = remark;
      const json = JSON.stringify(answers);
      responses.push({
        id: randomUUID(), client_id: randomUUID(), survey_id: retailId, organization_id: orgId, member_id: m.id, user_id: m.userId,
        answers: json, body_hash: createHash('sha256').update(json).digest('hex'), search_text: searchTextOf(m.f.fullName, m.f.email, answers),
        rate: m.f.rate, paid_at: daysAgo > 28 ? now - 21 * DAY : null, captured_at: created - 60_000, created_at: created,
      });
    }
    for (let i = 0; i < responses.length; i += 100) await trx.insertInto('responses').values(responses.slice(i, i + 100)).execute();
    // Each field user's phone reported at its last sync, when its newest response arrived: a team
    // list showing hundreds of responses beside Last sync "Never" would contradict itself.
    const newest = new Map<string, number>();
    for (const r of responses) newest.set(r.user_id, Math.max(newest.get(r.user_id) ?? 0, r.created_at));
    const devices = members.filter((m) => newest.has(m.userId)).map((m, i) => ({
      user_id: m.userId, device_id: `demo-phone-${i + 1}`, app_version: 'demo', waiting: 0, failed: 0, photos_waiting: 0,
      storage_used: null, storage_quota: null, last_sync_at: newest.get(m.userId)!, reported_at: newest.get(m.userId)!,
    }));
    if (devices.length > 0) await trx.insertInto('device_status').values(devices).execute();
  });

  writeFileSync(file, JSON.stringify(logins, null, 2), { mode: 0o600 });
  app.log.info({ logins: logins.length }, 'demo organization seeded');
  return logins;
}
