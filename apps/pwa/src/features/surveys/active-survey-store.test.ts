import { Role, type Survey, type SurveyListReply } from '@survey-bird/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseActive, createActiveSurveyStore, STORAGE_KEY, surveyListRoute, type ActiveSurveyDeps } from './active-survey-store';
import { accountKey } from '../../session/account-key';

const survey = (n: number): Survey => ({
  _id: `s${n}`,
  title: `Survey ${n}`,
  description: '',
  organization_id: 'o1',
  expectedResponseCount: null,
  questions: [],
  createdAt: '2026-01-01T00:00:00.000Z',
});
const reply = (surveys: Survey[], hasNextPage = false): SurveyListReply => ({ survey: surveys, page: 1, totalCount: surveys.length + (hasNextPage ? 20 : 0), hasNextPage, hasPreviousPage: false });

describe('chooseActive', () => {
  it('takes the first survey when none was chosen', () => {
    expect(chooseActive([survey(1), survey(2)], true, null)).toEqual(survey(1));
  });
  it('is null when there is no survey', () => {
    expect(chooseActive([], true, null)).toBeNull();
  });
  it('keeps a chosen survey that is still listed, in its fresh form', () => {
    const stale = { ...survey(2), title: 'old title' };
    expect(chooseActive([survey(1), survey(2)], true, stale)).toEqual(survey(2));
  });
  it('keeps a chosen survey that may be on a later page', () => {
    expect(chooseActive([survey(1)], false, survey(30))).toEqual(survey(30));
  });
  it('drops a chosen survey missing from the complete list', () => {
    expect(chooseActive([survey(1)], true, survey(30))).toEqual(survey(1));
    expect(chooseActive([], true, survey(30))).toBeNull();
  });
});

describe('surveyListRoute', () => {
  it('reads the list of the role', () => {
    expect(surveyListRoute(Role.organization)).toBe('organizationSurveys');
    expect(surveyListRoute(Role.supervisor)).toBe('supervisorSurveys');
    expect(surveyListRoute(Role.fieldUser)).toBe('fieldUserSurveys');
    expect(surveyListRoute(Role.masterAdmin)).toBeNull();
    expect(surveyListRoute(undefined)).toBeNull();
  });
});

describe('the active-survey store', () => {
  let lists: Record<string, Survey[]>;
  let deps: ActiveSurveyDeps;

  beforeEach(() => {
    localStorage.clear();
    lists = { 'ada@x.ng': [survey(1), survey(2)], 'bola@x.ng': [survey(7)] };
    deps = {
      fetchFirstPage: vi.fn(async (account: string) => reply(lists[account] ?? [])),
      storage: localStorage,
    };
  });

  it('selects the first survey once loaded, with the fetching flag up meanwhile', async () => {
    const s = createActiveSurveyStore(deps);
    expect(s.peek(accountKey('ada@x.ng'))).toMatchObject({ active: null, loading: true, loaded: false, fetchedAt: null });
    const loading = s.load(accountKey('ada@x.ng'), 'organizationSurveys');
    expect(s.peek(accountKey('ada@x.ng')).loading).toBe(true);
    const before = Date.now();
    await loading;
    expect(s.peek(accountKey('ada@x.ng'))).toMatchObject({ active: survey(1), loading: false, loaded: true, totalCount: 2 });
    expect(s.peek(accountKey('ada@x.ng')).fetchedAt).toBeGreaterThanOrEqual(before);
  });

  it('shares one request between concurrent loads', async () => {
    const s = createActiveSurveyStore(deps);
    await Promise.all([s.load(accountKey('ada@x.ng'), 'organizationSurveys'), s.load(accountKey('ada@x.ng'), 'organizationSurveys')]);
    expect(deps.fetchFirstPage).toHaveBeenCalledTimes(1);
  });

  it('keeps one active survey per account', async () => {
    const s = createActiveSurveyStore(deps);
    await s.load(accountKey('ada@x.ng'), 'organizationSurveys');
    await s.load(accountKey('bola@x.ng'), 'organizationSurveys');
    s.setActive(accountKey('ada@x.ng'), survey(2));
    expect(s.peek(accountKey('ada@x.ng')).active).toEqual(survey(2));
    expect(s.peek(accountKey('bola@x.ng')).active).toEqual(survey(7));
  });

  it('remembers the choice across reloads, per account', async () => {
    const first = createActiveSurveyStore(deps);
    await first.load(accountKey('ada@x.ng'), 'organizationSurveys');
    first.setActive(accountKey('ada@x.ng'), survey(2));
    expect(Object.keys(JSON.parse(localStorage.getItem(STORAGE_KEY)!) as object)).toEqual(['ada@x.ng']);

    const afterReload = createActiveSurveyStore(deps);
    expect(afterReload.peek(accountKey('ada@x.ng')).active).toEqual(survey(2));
    await afterReload.load(accountKey('ada@x.ng'), 'organizationSurveys');
    expect(afterReload.peek(accountKey('ada@x.ng')).active).toEqual(survey(2));
    await afterReload.load(accountKey('bola@x.ng'), 'organizationSurveys');
    expect(afterReload.peek(accountKey('bola@x.ng')).active).toEqual(survey(7));
  });

  it('a reload whose list still holds the remembered survey unchanged changes nothing the form reads', async () => {
    const first = createActiveSurveyStore(deps);
    await first.load(accountKey('ada@x.ng'), 'organizationSurveys');
    const afterReload = createActiveSurveyStore(deps);
    const shown = afterReload.peek(accountKey('ada@x.ng')).active;
    const changes = vi.fn();
    afterReload.store.subscribe(changes);
    const loading = afterReload.load(accountKey('ada@x.ng'), 'organizationSurveys');
    expect(changes).not.toHaveBeenCalled(); // the fetching flag was already up
    await loading;
    expect(changes).toHaveBeenCalledTimes(1);
    expect(afterReload.peek(accountKey('ada@x.ng')).active).toBe(shown);
  });

  it('takes the fresh survey when the server changed it', async () => {
    const first = createActiveSurveyStore(deps);
    await first.load(accountKey('ada@x.ng'), 'organizationSurveys');
    lists['ada@x.ng'] = [{ ...survey(1), title: 'Renamed' }, survey(2)];
    const afterReload = createActiveSurveyStore(deps);
    await afterReload.load(accountKey('ada@x.ng'), 'organizationSurveys');
    expect(afterReload.peek(accountKey('ada@x.ng')).active?.title).toBe('Renamed');
  });

  it('falls back to the first survey when the remembered one is gone', async () => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ 'ada@x.ng': survey(9) }));
    const s = createActiveSurveyStore(deps);
    await s.load(accountKey('ada@x.ng'), 'organizationSurveys');
    expect(s.peek(accountKey('ada@x.ng')).active).toEqual(survey(1));
  });

  it('discards a corrupt stored value', () => {
    localStorage.setItem(STORAGE_KEY, '{"ada@x.ng": {"title": 3}}');
    expect(createActiveSurveyStore(deps).peek(accountKey('ada@x.ng')).active).toBeNull();
    localStorage.setItem(STORAGE_KEY, 'not json');
    expect(createActiveSurveyStore(deps).peek(accountKey('ada@x.ng')).active).toBeNull();
  });

  it('puts a just-published survey in front and makes it active', async () => {
    const s = createActiveSurveyStore(deps);
    await s.load(accountKey('ada@x.ng'), 'organizationSurveys');
    s.setActive(accountKey('ada@x.ng'), survey(3));
    expect(s.peek(accountKey('ada@x.ng'))).toMatchObject({ active: survey(3), totalCount: 3 });
    expect(s.peek(accountKey('ada@x.ng')).surveys.map((x) => x._id)).toEqual(['s3', 's1', 's2']);
  });

  it('starts from the cached surveys when the list cannot be fetched', async () => {
    const s = createActiveSurveyStore({
      ...deps,
      fetchFirstPage: () => Promise.reject(new Error('offline')),
      cachedSurveys: async () => [survey(4), survey(5)],
    });
    await s.load(accountKey('ada@x.ng'), 'fieldUserSurveys');
    expect(s.peek(accountKey('ada@x.ng'))).toMatchObject({ active: survey(4), loading: false, loaded: true, fetchedAt: null });
  });

  it('keeps the remembered survey when offline with nothing cached', async () => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ 'ada@x.ng': survey(2) }));
    const s = createActiveSurveyStore({ ...deps, fetchFirstPage: () => Promise.reject(new Error('offline')) });
    await s.load(accountKey('ada@x.ng'), 'fieldUserSurveys');
    expect(s.peek(accountKey('ada@x.ng'))).toMatchObject({ active: survey(2), loading: false, loaded: true });
  });
});
