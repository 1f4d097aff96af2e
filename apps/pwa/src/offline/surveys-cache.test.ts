import { QuestionType, routes } from '@survey-bird/contracts';
import { beforeEach, expect, it } from 'vitest';
import { accountKey, db } from './db';
import { getCachedSurveys, searchDataset } from './surveys-cache';
import { cacheFieldUserSurveys } from './surveys-cache-refresh';
import { FakeServer, freshDb, q, survey } from '../../test/offline-server';


const ADA = accountKey('ada@example.com');
let server: FakeServer;
const towns = ['Aba', 'Abakaliki', 'Abeokuta', 'Abuja', 'Lagos', 'Kaduna', 'Kano', 'Ibadan', 'Port Harcourt', 'Makurdi'];

beforeEach(async () => {
  await freshDb();
  server = new FakeServer({ tok: ADA });
  const many = Array.from({ length: 120 }, (_, i) => `Ward ${String(i).padStart(3, '0')}`);
  server.surveys.set('s1', survey('s1', [q('Town', QuestionType.largeSelect), q('Name')]));
  server.surveys.set('s2', survey('s2', [q('Ward', QuestionType.largeSelect)]));
  server.surveys.set('s3', survey('s3', [q('Colour', QuestionType.select, false, ['red', 'blue'])]));
  server.datasets.set('s1|Town', towns);
  server.datasets.set('s2|Ward', [...many, 'Abandoned ward']);
});

it('caches every page of surveys and each large option list, per account', async () => {
  expect(await cacheFieldUserSurveys(accountKey('Ada@Example.com'), 'tok', { fetch: server.fetch })).toEqual({ surveys: 3, datasets: 2 });
  expect(server.paths(routes.fieldUserSurveys.path)).toHaveLength(2);
  expect((await getCachedSurveys(ADA)).map((s) => s._id)).toEqual(['s1', 's2', 's3']);
  expect(await getCachedSurveys(accountKey('ben@example.com'))).toEqual([]);
  expect(await db.datasets.count()).toBe(towns.length + 121);
});

it('caches a complete list it is given without asking for the list again', async () => {
  const listed = [...server.surveys.values()];
  expect(await cacheFieldUserSurveys(ADA, 'tok', { fetch: server.fetch, listed })).toEqual({ surveys: 3, datasets: 2 });
  expect(server.paths(routes.fieldUserSurveys.path)).toHaveLength(0);
  expect((await getCachedSurveys(ADA)).map((s) => s._id)).toEqual(['s1', 's2', 's3']);
  expect(await searchDataset(ADA, 's1', 'Town', 'ab')).toEqual(['Aba', 'Abakaliki', 'Abeokuta', 'Abuja']);
});

it('does not download an option list again when the stored copy is complete', async () => {
  server.surveys.set('s1', survey('s1', [{ ...q('Town', QuestionType.largeSelect), optionCount: towns.length }]));
  server.surveys.delete('s2');
  server.surveys.delete('s3');
  await cacheFieldUserSurveys(ADA, 'tok', { fetch: server.fetch });
  expect(await cacheFieldUserSurveys(ADA, 'tok', { fetch: server.fetch })).toEqual({ surveys: 1, datasets: 0 });
  expect(server.paths(routes.datasetExport.path)).toHaveLength(1);
});

it('drops surveys (and their options) the field user no longer has', async () => {
  await cacheFieldUserSurveys(ADA, 'tok', { fetch: server.fetch });
  server.surveys.delete('s1');
  await cacheFieldUserSurveys(ADA, 'tok', { fetch: server.fetch });
  expect((await getCachedSurveys(ADA)).map((s) => s._id)).toEqual(['s2', 's3']);
  expect(await searchDataset(ADA, 's1', 'Town', 'a')).toEqual([]);
});

it('throws when offline or refused, keeping the previous copy', async () => {
  await cacheFieldUserSurveys(ADA, 'tok', { fetch: server.fetch });
  await expect(cacheFieldUserSurveys(ADA, 'expired', { fetch: server.fetch })).rejects.toMatchObject({ status: 401 });
  expect(await getCachedSurveys(ADA)).toHaveLength(3);
});

it('searches offline: prefix matches first (alphabetically), then substring matches, case-insensitive', async () => {
  await cacheFieldUserSurveys(ADA, 'tok', { fetch: server.fetch });
  expect(await searchDataset(ADA, 's1', 'Town', 'ab')).toEqual(['Aba', 'Abakaliki', 'Abeokuta', 'Abuja']);
  expect(await searchDataset(ADA, 's1', 'Town', 'KA')).toEqual(['Kaduna', 'Kano', 'Abakaliki']);
  expect(await searchDataset(ADA, 's1', 'Town', '  port h ')).toEqual(['Port Harcourt']);
  expect(await searchDataset(ADA, 's1', 'Town', 'zzz')).toEqual([]);
  expect(await searchDataset(accountKey('ben@example.com'), 's1', 'Town', 'ab')).toEqual([]);
});

it('caps results at 50, prefix matches taking the first places; an empty query lists options in order', async () => {
  await cacheFieldUserSurveys(ADA, 'tok', { fetch: server.fetch });
  const found = await searchDataset(ADA, 's2', 'Ward', 'ward');
  expect(found).toHaveLength(50);
  expect(found[0]).toBe('Ward 000');
  expect(found).not.toContain('Abandoned ward');
  expect(await searchDataset(ADA, 's2', 'Ward', 'd w')).toEqual(['Abandoned ward']);
  const first = await searchDataset(ADA, 's2', 'Ward', '');
  expect(first).toHaveLength(50);
  expect(first.slice(0, 2)).toEqual(['Ward 000', 'Ward 001']);
});
