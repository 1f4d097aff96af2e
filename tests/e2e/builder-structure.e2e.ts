import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './harness/axe';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot } from './harness/server';
import { apiLogin, createOrganizationUser, type TestUser } from './harness/users';
import { LoginPage } from './pages/LoginPage';
import { SurveyBuilderPage } from './pages/Management';

// The builder edits groups and repeats: a roster built by hand (a repeat, questions moved into it,
// a limit, a group shown only on an answer, on one screen), tried in the preview on the phone's
// own form, then published with its structure.
const env = inject('env');
const shots = join(repoRoot, '.e2e/screenshots');
const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

describe('groups and repeats in the builder', () => {
  let b: Browser;
  let org: TestUser;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    org = await createOrganizationUser(env, 'builder-structure-org');
    b = await openBrowser();
    await new LoginPage(b.page, env.baseUrl).signIn(org.email, org.password);
  });
  afterAll(() => b?.close());

  it('builds a roster and a conditional group, previews it with the engine, and publishes the structure', async () => {
    const p = b.page;
    const builder = await new SurveyBuilderPage(p, env.baseUrl).open();
    await builder.details('Roster by hand', 'Built in the builder.');
    await builder.add({ text: 'Village', type: 'text answer' });
    await builder.add({ text: 'Does the household farm?', type: 'select', options: 'Yes, No' });
    await builder.add({ text: 'Name', type: 'text answer' });
    await builder.add({ text: 'Age', type: 'number' });
    await builder.add({ text: 'Main crop', type: 'text answer' });

    // A repeat, and Name and Age moved into it.
    await p.getByRole('button', { name: '+ Add repeat' }).click();
    await p.getByLabel('Repeat name (what is repeated)').fill('Member');
    await p.getByRole('button', { name: 'Add repeat', exact: true }).click();
    await p.getByLabel('Move question 3 to').selectOption({ label: 'Repeat: Member' });
    // Age is now question 3 (Name moved to the end, inside Member).
    await p.getByLabel('Move question 3 to').selectOption({ label: 'Repeat: Member' });
    const texts = () => p.locator('.qlist__text').allInnerTexts();
    await expect.poll(texts).toEqual(['Village *', 'Does the household farm? *', 'Main crop *', 'Member', 'Name *', 'Age *']);

    // At most 3 members.
    const entry = (text: string) => builder.questions().filter({ has: p.locator('.qlist__text', { hasText: new RegExp(`^${text}$`) }) });
    const member = entry('Member');
    await member.getByText('Repeat settings').click();
    await member.getByLabel(/At most/).fill('3');

    // A group shown only when the household farms, on one screen, with Main crop moved in.
    await p.getByRole('button', { name: '+ Add group' }).click();
    await p.getByLabel('Group title').fill('Farming');
    await p.getByRole('button', { name: 'Add group', exact: true }).click();
    await p.getByLabel('Move question 3 to').selectOption({ label: 'Group: Farming' });
    const farming = entry('Farming');
    await farming.getByText('Group settings').click();
    // A wrong name is named as the publish would; then the right expression.
    const relevant = farming.getByLabel(/Show only if/);
    await relevant.fill("${nobody} = 'Yes'");
    await farming.getByRole('alert').getByText(/nobody/).waitFor();
    const farmsId = await p.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.includes('draft'));
      const draft = key ? (JSON.parse(localStorage.getItem(key)!) as { questions: { id: string; text: string }[] }) : null;
      return draft?.questions.find((q) => q.text === 'Does the household farm?')?.id ?? '';
    });
    expect(farmsId).not.toBe('');
    // The question is picked from a list, never typed by its id.
    await relevant.fill('');
    await farming.getByLabel('Insert a question into the condition of Farming').selectOption({ label: 'Does the household farm?' });
    await relevant.press('End');
    await relevant.pressSequentially(" = 'Yes'");
    expect(await relevant.inputValue()).toBe(`\${${farmsId}} = 'Yes'`);
    await farming.getByRole('alert').waitFor({ state: 'detached' });
    await farming.getByLabel(/one screen/).check();
    await expect.poll(texts).toEqual(['Village *', 'Does the household farm? *', 'Member', 'Name *', 'Age *', 'Farming', 'Main crop *']);
    await shot(p, 'builder-structure-1280');
    expect(await seriousViolations(p)).toEqual([]);
    await p.setViewportSize(PHONE);
    await shot(p, 'builder-structure-390');
    await p.setViewportSize({ width: 1280, height: 800 });

    // The preview runs the form: the group appears on Yes, members are added up to 3.
    await p.getByRole('button', { name: 'Preview' }).click();
    const preview = p.getByRole('dialog', { name: /Preview/ });
    await preview.locator('.rpt').waitFor();
    await expect.poll(() => preview.getByText('Main crop').count()).toBe(0);
    await preview.getByRole('group', { name: 'Does the household farm?' }).locator('select').selectOption('Yes');
    await preview.getByRole('group', { name: 'Main crop' }).waitFor();
    // An open-ended repeat starts empty: "Add Member", then "Add another Member" up to its maximum.
    await preview.getByRole('button', { name: 'Add Member' }).click();
    const add = preview.getByRole('button', { name: 'Add another Member' });
    for (let i = 0; i < 2; i++) await add.click();
    await expect.poll(() => preview.locator('.rpt__inst').count()).toBe(3);
    await add.waitFor({ state: 'detached' });
    await preview.getByRole('button', { name: 'Check answers' }).click();
    await p.getByText(/questions are missing/).first().waitFor();
    await shot(p, 'builder-preview-1280');
    await preview.getByRole('button', { name: 'Close' }).first().click();

    await builder.publish();
    await p.waitForURL(/\/organization\/manage/);
    const token = await apiLogin(env, org);
    const list = await fetch(`${env.baseUrl}/api/v1/survey/organization`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json()) as { survey: { title: string; questions: { text: string; type: string; parent?: string; id: string; repeat?: unknown; appearance?: string; relevantExpr?: string }[] }[] };
    const published = list.survey.find((s) => s.title === 'Roster by hand')!;
    const byText = new Map(published.questions.map((q) => [q.text, q]));
    expect(byText.get('Name')!.parent).toBe(byText.get('Member')!.id);
    expect(byText.get('Member')!.repeat).toEqual({ max: 3 });
    expect(byText.get('Farming')).toMatchObject({ appearance: 'field-list', relevantExpr: `\${${farmsId}} = 'Yes'` });
    expect(byText.get('Main crop')!.parent).toBe(byText.get('Farming')!.id);
  });
});
