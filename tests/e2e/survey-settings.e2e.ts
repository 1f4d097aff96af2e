import { QuestionType } from '@survey-bird/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './harness/axe';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser } from './harness/users';
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

  beforeAll(async () => {
    const org = await createOrganizationUser(env, 'settings-org');
    await apiPost(env, '/survey/create', {
      title: TITLE,
      description: 'Is the borehole working?',
      questions: [
        { text: 'Working?', type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] },
        { text: 'Depth (m)', type: QuestionType.number, compulsory: false, options: [] },
      ],
    }, await apiLogin(env, org));
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
