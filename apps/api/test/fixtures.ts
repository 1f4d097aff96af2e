import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { OfficeRole, QuestionType, Role, withQuestionIds, type StoredQuestion } from '@survey-bird/contracts';
import { searchTextOf } from '../src/modules/responses/search-text.js';
import { createUser, login } from './helpers.js';

/**
 * Rows inserted straight into the real database, for tests of one domain that need another's data.
 * Each returns ids and, where a person is involved, a signed-in token.
 */
export async function createOrganization(app: FastifyInstance, name = 'Acme Research') {
  const id = randomUUID();
  const email = `owner-${id.slice(0, 8)}@org.ng`;
  await app.db.kysely.insertInto('organizations').values({ id, name, email, created_at: Date.now() }).execute();
  await app.db.kysely.insertInto('office_users').values({ id: randomUUID(), organization_id: id, email, role: OfficeRole.owner, survey_ids: null, invited_by: null, created_at: Date.now() }).execute();
  const user = await createUser(app, email, Role.organization, { fullName: name });
  return { id, email, userId: user.id, token: await login(app, email) };
}

/** An office user of the organization with this office role (every survey, or only `surveyIds`), signed in. */
export async function addOfficeUser(app: FastifyInstance, organizationId: string, role: OfficeRole, surveyIds: string[] | null = null) {
  const id = randomUUID();
  const email = `${role}-${id.slice(0, 8)}@office.ng`;
  await app.db.kysely.insertInto('office_users').values({ id, organization_id: organizationId, email, role, survey_ids: surveyIds && JSON.stringify(surveyIds), invited_by: null, created_at: Date.now() }).execute();
  const user = await createUser(app, email, Role.organization, { fullName: `The ${role}` });
  return { id, email, userId: user.id, token: await login(app, email) };
}

export const sampleQuestions: StoredQuestion[] = withQuestionIds<Omit<StoredQuestion, 'id'>>([
  { text: 'Name of outlet', type: QuestionType.text, compulsory: true, options: [] },
  { text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Supermarket', 'Open market'] },
  { text: 'Brands stocked', type: QuestionType.checkbox, compulsory: false, options: ['Alpha', 'Beta', 'Gamma'] },
  { text: 'Shelf photo', type: QuestionType.image, compulsory: false, options: [] },
  { text: 'Location', type: QuestionType.liveLocation, compulsory: false, options: [] },
]);

/** A question as a test writes it: the id may be left out, as for surveys stored before ids. */
export type FixtureQuestion = Omit<StoredQuestion, 'id'> & { id?: string };

export async function createSurvey(app: FastifyInstance, organizationId: string, opts: { title?: string; questions?: FixtureQuestion[]; expected?: number | null; createdAt?: number } = {}) {
  const id = randomUUID();
  await app.db.kysely
    .insertInto('surveys')
    .values({ id, organization_id: organizationId, title: opts.title ?? 'Retail audit', description: 'Audit of outlets', expected_response_count: opts.expected ?? 100, questions: JSON.stringify(opts.questions ?? sampleQuestions), created_at: opts.createdAt ?? Date.now() })
    .execute();
  return { id };
}

export interface MemberOpts {
  role?: typeof Role.fieldUser | typeof Role.supervisor;
  fullName?: string;
  email?: string;
  rate?: number;
  supervisorId?: string | null;
  /** false: invited but not registered yet */
  registered?: boolean;
}

export async function addMember(app: FastifyInstance, surveyId: string, organizationId: string, opts: MemberOpts = {}) {
  const id = randomUUID();
  const role = opts.role ?? Role.fieldUser;
  const email = opts.email ?? `${role}-${id.slice(0, 8)}@team.ng`;
  let userId: string | null = null;
  let token: string | null = null;
  if (opts.registered !== false) {
    const existing = await app.db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    userId = existing?.id ?? (await createUser(app, email, role, { fullName: opts.fullName ?? 'Field Person' })).id;
    token = await login(app, email);
  }
  await app.db.kysely
    .insertInto('members')
    .values({ id, survey_id: surveyId, organization_id: organizationId, role, email, user_id: userId, full_name: opts.fullName ?? 'Field Person', phone_number: '08030000000', bank: 'Zenith Bank', account_number: '0123456789', account_name: opts.fullName ?? 'Field Person', rate: opts.rate ?? 0, supervisor_id: opts.supervisorId ?? null, created_at: Date.now() })
    .execute();
  return { id, email, userId, token };
}

export async function addResponse(app: FastifyInstance, member: { id: string; userId: string | null }, survey: { id: string; organizationId: string }, opts: { answers?: Record<string, string | string[]>; createdAt?: number; capturedAt?: number; rate?: number; fullName?: string; email?: string; paid?: boolean; status?: string } = {}) {
  const id = randomUUID();
  const answers = opts.answers ?? { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' };
  const json = JSON.stringify(answers);
  await app.db.kysely
    .insertInto('responses')
    .values({
      id,
      client_id: randomUUID(),
      survey_id: survey.id,
      organization_id: survey.organizationId,
      member_id: member.id,
      user_id: member.userId!,
      answers: json,
      body_hash: createHash('sha256').update(json).digest('hex'),
      search_text: searchTextOf(opts.fullName ?? 'Field Person', opts.email ?? '', answers),
      rate: opts.rate ?? 0,
      paid_at: opts.paid ? Date.now() : null,
      captured_at: opts.capturedAt ?? null,
      created_at: opts.createdAt ?? Date.now(),
      ...(opts.status ? { status: opts.status } : {}),
    })
    .execute();
  return { id };
}
