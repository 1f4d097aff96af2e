import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './harness/axe';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot } from './harness/server';
import { apiLogin, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';
import { SurveyBuilderPage } from './pages/Management';

// The builder makes what imported XLSForms carry: a calculation shown in a note, a cascading
// choice filter (State -> LGA by an option column) and a Hausa translation, each checked as it is
// typed; the preview runs them on the engine, and a field user's phone runs the published form.
const env = inject('env');
const shots = join(repoRoot, '.e2e/screenshots');
const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
const TITLE = 'Household (built)';

describe('calculations, choice filters and languages in the builder', () => {
  let b: Browser;
  let org: TestUser;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    org = await createOrganizationUser(env, 'builder-logic-org');
    b = await openBrowser();
    await new LoginPage(b.page, env.baseUrl).signIn(org.email, org.password);
  });
  afterAll(() => b?.close());

  it('builds, previews and publishes the form; the phone switches to Hausa, filters the LGAs and shows the total', async () => {
    const p = b.page;
    const builder = await new SurveyBuilderPage(p, env.baseUrl).open();
    await builder.details(TITLE, 'Built with logic.');
    await builder.add({ text: 'Adults', type: 'number' });
    await builder.add({ text: 'Children', type: 'number' });

    // A calculation: a wrong name is named as it is typed, then questions are picked by text.
    await p.getByLabel('Question', { exact: true }).fill('People');
    await builder.typeSelect().selectOption('calculate');
    const calc = p.getByLabel('Calculation', { exact: true });
    await calc.fill('${adults} +');
    await p.locator('.expr [role="alert"]', { hasText: 'Not a valid expression' }).waitFor();
    await calc.fill('');
    await p.getByLabel('Insert a question into Calculation').selectOption({ label: 'Adults' });
    await calc.press('End');
    await calc.pressSequentially(' + coalesce(');
    await p.getByLabel('Insert a question into Calculation').selectOption({ label: 'Children' });
    await calc.press('End');
    await calc.pressSequentially(', 0)');
    await p.locator('.expr__readable', { hasText: 'Reads: [Adults] + coalesce([Children], 0)' }).waitFor();
    await p.getByRole('button', { name: 'Add', exact: true }).click();

    // A note showing the calculated value.
    await builder.typeSelect().selectOption('note');
    await p.getByLabel('Question', { exact: true }).fill('People in the household: ');
    await p.getByLabel('Insert an answer into the question text').selectOption({ label: 'People' });
    await p.getByRole('button', { name: 'Add', exact: true }).click();

    // State, then LGA filtered by a state column.
    await builder.add({ text: 'State', type: 'select', options: 'Kano, Lagos' });
    await builder.fillQuestion({ text: 'LGA', type: 'select', options: 'Nassarawa, Ungogo, Ikeja, Epe' });
    await p.locator('.builder__logic summary').click();
    await p.getByLabel('New column name').fill('state');
    await p.getByRole('button', { name: 'Add column' }).click();
    for (const [lga, state] of [['Nassarawa', 'Kano'], ['Ungogo', 'Kano'], ['Ikeja', 'Lagos'], ['Epe', 'Lagos']]) await p.getByLabel(`state of ${lga}`).fill(state!);
    const filter = p.getByLabel(/^Choice filter/);
    await filter.fill('state = ');
    await p.getByLabel(/^Insert a question into Choice filter/).selectOption({ label: 'State' });
    await p.locator('.expr__readable', { hasText: 'Reads: state = [State]' }).waitFor();
    await p.getByRole('button', { name: 'Add', exact: true }).click();
    await p.locator('.qlist__item', { hasText: 'Choices where state' }).waitFor();

    // Hausa: a column of translations.
    await p.getByRole('button', { name: 'Languages' }).click();
    const panel = p.getByRole('dialog', { name: 'Languages' });
    await panel.getByLabel('Add a language').fill('Hausa');
    await panel.getByLabel(/^Code/).last().fill('ha');
    await panel.getByRole('button', { name: 'Add language' }).click();
    await panel.getByRole('columnheader', { name: 'Hausa' }).waitFor();
    await panel.getByLabel('1. Label "Adults" in Hausa').fill('Manya');
    await panel.getByLabel('2. Label "Children" in Hausa').fill('Yara');
    await panel.getByLabel('5. Label "State" in Hausa').fill('Jiha');
    await panel.getByLabel('5. Option "Lagos" in Hausa').fill('Legas');
    await shot(p, 'builder-languages-1280');
    expect(await seriousViolations(p)).toEqual([]);
    await p.setViewportSize(PHONE);
    await shot(p, 'builder-languages-390');
    await p.setViewportSize({ width: 1280, height: 800 });
    await panel.getByRole('button', { name: 'Done' }).click();
    await p.getByRole('button', { name: 'Languages (2)' }).waitFor();
    await builder.questions().nth(5).getByRole('button', { name: /^Edit/ }).click();
    await shot(p, 'builder-logic-1280');
    expect(await seriousViolations(p)).toEqual([]);
    await p.setViewportSize(PHONE);
    await shot(p, 'builder-logic-390');
    await p.setViewportSize({ width: 1280, height: 800 });
    await p.getByRole('button', { name: 'Cancel' }).click();

    // The preview runs the engine: the total, the filtered LGAs, the language switch.
    await p.getByRole('button', { name: 'Preview' }).click();
    const preview = p.getByRole('dialog', { name: /Preview/ });
    await preview.getByRole('group', { name: 'Adults' }).getByRole('textbox').fill('2');
    await preview.getByRole('group', { name: 'Children' }).getByRole('textbox').fill('3');
    await preview.getByText('People in the household: 5').waitFor();
    await preview.getByRole('group', { name: 'State' }).locator('select').selectOption('Lagos');
    await expect.poll(() => preview.getByRole('group', { name: 'LGA' }).locator('select option:not([value=""])').allTextContents()).toEqual(['Ikeja', 'Epe']);
    await preview.getByLabel('Language').selectOption('ha');
    await preview.getByRole('group', { name: 'Manya' }).waitFor();
    await preview.getByRole('button', { name: 'Close' }).first().click();

    await builder.publish();
    await p.waitForURL(/\/organization\/manage/);
    const token = await apiLogin(env, org);
    const list = await fetch(`${env.baseUrl}/api/v1/survey/organization`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json()) as { survey: { _id: string; title: string; languages?: unknown; questions: { text: string; calculation?: string; choiceFilter?: string }[] }[] };
    const published = list.survey.find((s) => s.title === TITLE)!;
    expect(published.languages).toEqual([{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }]);
    expect(published.questions.find((q) => q.text === 'LGA')!.choiceFilter).toMatch(/^state = \$\{q\w+\}$/);

    // The phone.
    const fieldUser = await createTeamMember(env, org, published._id, 'field-user');
    const phone = await openBrowser(PHONE);
    try {
      const fp = phone.page;
      await new LoginPage(fp, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
      const form = await new FieldUserFormPage(fp, env.baseUrl).open(TITLE);
      await form.fillText('Adults', '2');
      await form.fillText('Children', '4');
      await fp.getByText('People in the household: 6').waitFor();
      await form.choose('State', 'Kano');
      await expect.poll(() => form.question('LGA').locator('select option:not([value=""])').allTextContents()).toEqual(['Nassarawa', 'Ungogo']);
      await fp.getByLabel('Language').selectOption('ha');
      await form.question('Manya').waitFor();
      expect(await form.question('Manya').getByRole('textbox').inputValue()).toBe('2');
      await form.question('Jiha').locator('select').selectOption('Lagos');
      expect(await form.question('Jiha').locator('select option:checked').textContent()).toBe('Legas');
      await expect.poll(() => form.question('LGA').locator('select option:not([value=""])').allTextContents()).toEqual(['Ikeja', 'Epe']);
      await shot(fp, 'builder-logic-phone-390');
    } finally {
      await phone.close();
    }
  });
});
