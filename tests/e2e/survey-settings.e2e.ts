import { QuestionType } from '@survey-bird/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './harness/axe';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { LoginPage } from './pages/LoginPage';
import { ManageSurveysPage } from './pages/Management';

/**
 * A survey's settings in one panel from Manage Survey: each control set, saved, and still set after
 * a reload; Close asks first. The edit builder keeps its draft across a reload until it is discarded.
 */
const env = inject('env');
const TITLE = 'Borehole check';

describe('Survey settings and the edit draft', () => {
  let office: Browser;
  let manage: ManageSurveysPage;
  let org: TestUser;
  let surveyId = '';

  beforeAll(async () => {
    org = await createOrganizationUser(env, 'settings-org');
    surveyId = (await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
      title: TITLE,
      description: 'Is the borehole working?',
      questions: [
        { text: 'Working?', type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] },
        { text: 'Depth (m)', type: QuestionType.number, compulsory: false, options: [] },
      ],
    }, await apiLogin(env, org))).survey._id;
    office = await openBrowser(DESKTOP);
    await new LoginPage(office.page, env.baseUrl).signIn(org.email, org.password);
    manage = new ManageSurveysPage(office.page);
  });
  afterAll(async () => {
    await office?.close();
  });

  it('sets pay after review, the too-fast minimum, the GPS limit and photo quality; a reload shows each kept', async () => {
    let panel = await (await manage.openFromMenu()).openSettings(TITLE);
    expect(await panel.getByLabel('Pay after review').isChecked()).toBe(false);
    expect(await panel.getByLabel(/Minimum time to fill in/).inputValue()).toBe('');
    expect(await seriousViolations(office.page)).toEqual([]);
    await panel.getByLabel('Pay after review').check();
    await panel.getByLabel(/Minimum time to fill in/).fill('90');
    await panel.getByLabel(/GPS accuracy limit/).fill('50');
    await panel.getByLabel('Photo quality').selectOption('high');
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await toast(office.page, 'Settings saved').waitFor();

    await office.page.reload();
    panel = await (await manage.openFromMenu()).openSettings(TITLE);
    expect(await panel.getByLabel('Pay after review').isChecked()).toBe(true);
    expect(await panel.getByLabel(/Minimum time to fill in/).inputValue()).toBe('90');
    expect(await panel.getByLabel(/GPS accuracy limit/).inputValue()).toBe('50');
    expect(await panel.getByLabel('Photo quality').inputValue()).toBe('high');

    // Blank is back to the default.
    await panel.getByLabel(/GPS accuracy limit/).fill('');
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await toast(office.page, 'Settings saved').waitFor();
    await office.page.reload();
    panel = await (await manage.openFromMenu()).openSettings(TITLE);
    expect(await panel.getByLabel(/GPS accuracy limit/).inputValue()).toBe('');
    expect(await panel.getByLabel(/Minimum time to fill in/).inputValue()).toBe('90');
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
  });

  it('audio audits: a field user chosen by search is recorded always; a reload shows them by name, Remove takes them off', async () => {
    await createTeamMember(env, org, surveyId, 'field-user', { fullName: 'Ngozi Always' });
    await createTeamMember(env, org, surveyId, 'field-user', { fullName: 'Tunde Sometimes' });
    let panel = await (await manage.openFromMenu()).openSettings(TITLE);
    await panel.getByLabel('Record a random share of interviews').check();
    await panel.getByLabel('Find a field user to always record').fill('Ngozi');
    await panel.getByRole('button', { name: 'Add Ngozi Always' }).click();
    await panel.getByRole('list', { name: 'Always recorded' }).getByText('Ngozi Always').waitFor();
    expect(await seriousViolations(office.page)).toEqual([]);
    await panel.getByLabel("Its field user's back-checks are within the threshold").check();
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await toast(office.page, 'Settings saved').waitFor();
    const read = async () => {
      const res = await fetch(`${env.baseUrl}/api/v1/survey/organization`, { headers: { authorization: `Bearer ${await apiLogin(env, org)}` } });
      const list = (await res.json()) as { survey: { _id: string; audioAudit: { alwaysFieldUserIds: string[] } | null; payGate: { backcheck: boolean } }[] };
      return list.survey.find((x) => x._id === surveyId);
    };
    const stored = async () => (await read())?.audioAudit?.alwaysFieldUserIds;
    expect(await stored()).toHaveLength(1);
    expect((await read())?.payGate.backcheck).toBe(true);

    await office.page.reload();
    panel = await (await manage.openFromMenu()).openSettings(TITLE);
    const chosen = panel.getByRole('list', { name: 'Always recorded' });
    await chosen.getByText('Ngozi Always').waitFor();
    await chosen.getByRole('button', { name: 'Remove Ngozi Always' }).click();
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(stored).toEqual([]);
    // Audits off again: the next test's survey records nothing.
    await panel.getByLabel('Record a random share of interviews').uncheck();
    await panel.getByLabel("Its field user's back-checks are within the threshold").uncheck();
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await toast(office.page, 'Settings saved').waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
  });

  it('Close survey asks first: Cancel keeps it open; confirmed, it is closed after a reload, and Reopen opens it', async () => {
    let panel = await (await manage.openFromMenu()).openSettings(TITLE);
    const confirm = office.page.getByRole('alertdialog', { name: 'Close this survey?' });
    await panel.getByRole('button', { name: 'Close survey' }).click();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await panel.getByRole('region', { name: 'Survey status' }).textContent()).toContain('Open');

    await panel.getByRole('button', { name: 'Close survey' }).click();
    await confirm.getByRole('button', { name: 'Close survey' }).click();
    await toast(office.page, 'Survey closed').waitFor();
    await office.page.reload();
    panel = await (await manage.openFromMenu()).openSettings(TITLE);
    expect(await panel.getByRole('region', { name: 'Survey status' }).textContent()).toContain('Closed');
    await panel.getByRole('button', { name: 'Reopen' }).click();
    await toast(office.page, 'Survey reopened').waitFor();
    await panel.getByRole('button', { name: 'Close survey' }).waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
  });

  it('the edit builder keeps an unpublished change across a reload, until Discard changes', async () => {
    const details = await (await manage.openFromMenu()).openSurvey(TITLE);
    await details.getByRole('button', { name: 'Edit' }).click();
    const title = office.page.getByLabel('Survey title');
    await office.page.getByRole('heading', { name: 'Edit survey' }).waitFor();
    // Reloaded at once: before the draft's 400 ms debounce has written it.
    await title.fill('Borehole check (draft)');
    await office.page.reload();
    await office.page.getByRole('heading', { name: 'Edit survey' }).waitFor();
    expect(await title.inputValue()).toBe('Borehole check (draft)');

    await office.page.getByRole('button', { name: 'Discard changes' }).click();
    await office.page.getByRole('alertdialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard changes' }).click();
    expect(await title.inputValue()).toBe(TITLE);
    await office.page.reload();
    await office.page.getByRole('heading', { name: 'Edit survey' }).waitFor();
    expect(await title.inputValue()).toBe(TITLE);
  });

  it('at 390 px the builder\'s publish bar and Import stay inside the screen', async () => {
    await office.page.setViewportSize(PHONE);
    try {
      await office.page.goto(`${env.baseUrl}/survey-bird/organization/create`);
      await office.page.getByRole('heading', { name: "Let's get started!" }).waitFor();
      const outside = await office.page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        return [...document.querySelectorAll('.builder__publish .btn, .builder__import')].filter((el) => el.getBoundingClientRect().right > width + 0.5).map((el) => el.textContent);
      });
      expect(outside).toEqual([]);
      expect(await office.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    } finally {
      await office.page.setViewportSize(DESKTOP);
    }
  });
});
