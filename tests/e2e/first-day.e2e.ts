import { Limits, Msg, QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot } from './harness/server';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast, waitForPath, waitForServiceWorker } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { Header } from './pages/Header';
import { LoginPage } from './pages/LoginPage';

/**
 * A first day in the field (issue "Field-ready on day one"): signing in lands on the role's home,
 * the landing page and the product grid lead back to it, the form tells the worker what to fix,
 * and signing out never loses what is still on the phone.
 */
const env = inject('env');

const TITLE = 'Market price check';
const Q = { name: 'Trader name', item: 'Item checked', notes: 'Notes', seen: 'Seen at the stall' } as const;
/** The field user's path, for the record: sign in, form, a refused submit, fixed, saved offline. */
const SHOTS = join(repoRoot, '.e2e/screenshots/first-day');

async function createSurvey(org: TestUser): Promise<string> {
  const reply = await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
    title: TITLE,
    questions: [
      { text: Q.name, type: QuestionType.text, compulsory: true, options: [] },
      { text: Q.item, type: QuestionType.select, compulsory: true, options: ['Rice', 'Beans', 'Garri'] },
      { text: Q.notes, type: QuestionType.text, compulsory: false, options: [] },
      { text: Q.seen, type: QuestionType.checkbox, compulsory: false, options: ['Scale', 'Price list'] },
    ],
  }, await apiLogin(env, org));
  return reply.survey._id;
}

function serverCount(surveyId: string): number {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select count(*) as n from responses where survey_id = ?').get(surveyId) as { n: number }).n;
  } finally {
    db.close();
  }
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

describe('first day in the field', () => {
  let phone: Browser;
  let desk: Browser;
  let org: TestUser;
  let supervisor: TestUser;
  let fieldUser: TestUser;
  let surveyId: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    org = await createOrganizationUser(env, 'day1-org');
    surveyId = await createSurvey(org);
    [fieldUser, supervisor] = await Promise.all([createTeamMember(env, org, surveyId, 'field-user'), createTeamMember(env, org, surveyId, 'supervisor')]);
    [phone, desk] = await Promise.all([openBrowser(PHONE), openBrowser()]);
    // Sign-ins hash passwords (scrypt) on a shared CI machine: give each step time rather than flake.
    for (const b of [phone, desk]) b.context.setDefaultTimeout(30_000);
  });
  afterAll(async () => {
    await phone?.close();
    await desk?.close();
  });

  it('signing in without a redirect lands on the role home; / offers one tap back to it', async () => {
    const login = new LoginPage(desk.page, env.baseUrl);
    for (const [user, home] of [[org, '/survey-bird/organization/insight'], [supervisor, '/survey-bird/supervisor/insight']] as const) {
      await login.signIn(user.email, user.password);
      await waitForPath(desk.page, home);
      await desk.page.goto(`${env.baseUrl}/`);
      const open = desk.page.getByRole('button', { name: 'Open Survey Bird' });
      // At the top of the page, above the hero's heading.
      const [openBox, heading] = await Promise.all([open.boundingBox(), desk.page.getByRole('heading', { level: 1 }).boundingBox()]);
      expect(openBox!.y).toBeLessThan(heading!.y);
      await open.click();
      await waitForPath(desk.page, home);
    }
    // A redirect is still followed.
    await new LoginPage(desk.page, env.baseUrl).open(`?redirect=${encodeURIComponent('/manage-account')}`);
    await login.fill(org.email, org.password);
    await login.submit();
    await waitForPath(desk.page, '/manage-account');
  });

  it('"All products" and ?showMicroservices=true open the product grid, and Survey Bird goes home', async () => {
    const { page } = desk;
    await page.goto(`${env.baseUrl}/`);
    const grid = page.getByRole('region', { name: 'Products' });
    await page.getByRole('link', { name: 'All products' }).click();
    await grid.waitFor();
    await page.keyboard.press('Escape');
    await grid.waitFor({ state: 'detached' });
    // The same link again, while on the page, opens it again.
    await page.getByRole('link', { name: 'All products' }).click();
    await grid.waitFor();
    await grid.getByRole('button', { name: /Survey Bird/ }).click();
    await waitForPath(page, '/survey-bird/organization/insight');
    // Opening the URL from another screen opens the grid too.
    await page.goto(`${env.baseUrl}/?showMicroservices=true`);
    await grid.waitFor();
  });

  it('the form reached through the product grid keeps its own layout (no landing styles), with Submit and no "Not synced yet"', async () => {
    const { page } = phone;
    const login = new LoginPage(page, env.baseUrl);
    await login.open();
    await shot(page, '1-sign-in');
    await login.fill(fieldUser.email, fieldUser.password);
    await login.submit();
    await waitForPath(page, '/survey-bird/field-user');
    // Back to the landing page (its stylesheet loads), then into the form without a reload.
    await page.getByRole('link', { name: 'Survey Bird home' }).click();
    await page.getByRole('button', { name: 'Open Survey Bird' }).waitFor();
    await page.getByRole('button', { name: 'Products' }).click();
    await page.getByRole('region', { name: 'Products' }).getByRole('button', { name: /Survey Bird/ }).click();
    const form = new FieldUserFormPage(page, env.baseUrl);
    await form.title(TITLE).waitFor();
    await form.question(Q.name).getByRole('textbox').waitFor();
    // The landing page's stylesheet is still in the page: the form must not pick up its rules.
    expect(await page.evaluate(() => [...document.styleSheets].some((sheet) => [...sheet.cssRules].some((r) => r.cssText.includes('.mock-q'))))).toBe(true);

    const layout = await form.question(Q.name).evaluate((group) => {
      const box = (el: Element | null) => el!.getBoundingClientRect();
      const label = box(group.querySelector('.q__text'));
      const input = box(group.querySelector('input'));
      const inner = box(group);
      const check = box(group.ownerDocument.querySelector('.q__check input'));
      const checkGroup = box(group.ownerDocument.querySelector('.q__check')!.closest('.q'));
      return { labelBottom: label.bottom, inputTop: input.top, inputWidth: input.width, groupWidth: inner.width, checkOffset: check.left - checkGroup.left };
    });
    expect(layout.labelBottom).toBeLessThanOrEqual(layout.inputTop);
    // Full width inside the group's 16 px padding and 1 px border.
    expect(layout.inputWidth).toBeGreaterThanOrEqual(layout.groupWidth - 2 * 17 - 1);
    expect(layout.checkOffset).toBeLessThan(40);

    expect((await form.submitButton().textContent())?.trim()).toBe('Submit');
    await expect.poll(() => form.waiting().textContent()).toBe('Nothing waiting to send');
    expect(await page.getByText('Not synced yet').count()).toBe(0);
    await shot(page, '2-form');
  });

  it('a refused submit marks every missing question, focuses the first and counts them; limits come from contracts', async () => {
    const { page, context } = phone;
    const form = new FieldUserFormPage(page, env.baseUrl);
    // Offline from here: the screens opened later (Manage Account, the sign-out question) come from the precache.
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await form.fillText(Q.notes, 'Stall near the gate');
    await form.submit();
    await toast(page, `${Msg.fillCompulsory}: 2 questions are missing`).waitFor();
    const invalid = page.locator('.q--invalid');
    expect(await invalid.count()).toBe(2);
    expect(await form.question(Q.name).getByText(Msg.answerRequired).isVisible()).toBe(true);
    expect(await form.question(Q.item).getByText(Msg.answerRequired).isVisible()).toBe(true);
    expect(await form.question(Q.name).getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
    expect(await form.question(Q.item).locator('select').getAttribute('aria-invalid')).toBe('true');
    // The first missing question has the keyboard and is on screen.
    expect(await page.evaluate(() => document.activeElement?.closest('[role="group"]')?.querySelector('.q__text')?.textContent)).toContain(Q.name);
    const box = await form.question(Q.name).boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
    await shot(page, '3-missing-answers');

    // Text answers stop at the server's limit, with a counter near it.
    const notes = form.question(Q.notes).getByRole('textbox');
    expect(await notes.getAttribute('maxlength')).toBe(String(Limits.maxAnswerLength));
    await notes.fill('x'.repeat(Limits.maxAnswerLength + 50));
    expect((await notes.inputValue()).length).toBe(Limits.maxAnswerLength);
    await form.question(Q.notes).getByText(`${Limits.maxAnswerLength} / ${Limits.maxAnswerLength} characters`).waitFor();
    await notes.fill('Stall near the gate');
    expect(await form.question(Q.notes).getByText('characters').count()).toBe(0);

    // Answering clears the mark; the fixed form is kept on the phone.
    await form.fillText(Q.name, 'Mama Nkechi');
    expect(await invalid.count()).toBe(1);
    await form.choose(Q.item, 'Rice');
    expect(await invalid.count()).toBe(0);
    await shot(page, '4-fixed');
    await form.submit();
    await toast(page, Msg.expiredSaved).waitFor();
    await expect.poll(() => form.waiting().textContent()).toBe(`1 ${Msg.savedOnPhone}`);
    await page.getByText('Not synced yet').waitFor();
    await shot(page, '5-saved-offline');
  });

  it('signing out with responses still on the phone asks first and keeps them; they go once signed in again', async () => {
    const { page, context } = phone;
    const form = new FieldUserFormPage(page, env.baseUrl);
    // Each submit is waited for by the count it adds (a toast of the previous one may still be showing).
    for (const [i, name] of ['Iya Bose', 'Baba Sule'].entries()) {
      await form.fillText(Q.name, name);
      await form.choose(Q.item, 'Beans');
      await form.submit();
      await expect.poll(() => form.waiting().textContent()).toBe(`${i + 2} ${Msg.savedOnPhone}`);
    }
    await expect.poll(() => form.waiting().textContent()).toBe(`3 ${Msg.savedOnPhone}`);
    // Still offline: the queue cannot leave while the question is asked.

    await new Header(page).manageAccount();
    await page.getByRole('heading', { name: 'Your Sessions' }).waitFor();
    await page.getByRole('button', { name: `Sign Out ${fieldUser.email}` }).click();
    const ask = page.getByRole('alertdialog');
    await ask.getByText('3 responses are still on this phone and will be sent when you sign in again').waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('.session').count()).toBe(1);

    await page.getByRole('button', { name: 'Sign out from all accounts' }).click();
    await ask.getByText('3 responses are still on this phone').waitFor();
    await ask.getByRole('button', { name: 'Sign out all' }).click();
    await waitForPath(page, '/');
    expect(serverCount(surveyId)).toBe(0);

    await context.setOffline(false);
    await new LoginPage(page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
    await waitForPath(page, '/survey-bird/field-user');
    await expect.poll(() => serverCount(surveyId), { timeout: 20_000 }).toBe(3);
    await expect.poll(() => form.waiting().textContent()).toBe('Nothing waiting to send');
  });

  it('the installed app starts at the stored account home, offline too', async () => {
    const { page, context } = phone;
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await fetch(new URL(href!, env.baseUrl))).json()) as { start_url: string };
    await waitForServiceWorker(page);
    await page.goto(new URL(manifest.start_url, env.baseUrl).href);
    await waitForPath(page, '/survey-bird/field-user');
    await context.setOffline(true);
    await page.goto(new URL(manifest.start_url, env.baseUrl).href);
    await waitForPath(page, '/survey-bird/field-user');
    await new FieldUserFormPage(page, env.baseUrl).title(TITLE).waitFor();
    await context.setOffline(false);
  });

  it('the responses table and the export say when each response was captured on the phone, to the second, in order', async () => {
    const { page, context } = phone;
    const form = new FieldUserFormPage(page, env.baseUrl);
    await form.open(TITLE);
    // Two days ago (so the table shows the date), three captures offline that sync in one batch.
    const day = new Date();
    day.setDate(day.getDate() - 2);
    const at = (h: number, m: number, s: number) => new Date(day.getFullYear(), day.getMonth(), day.getDate(), h, m, s);
    await context.setOffline(true);
    for (const [i, [name, time]] of ([['Ada 12:49', at(12, 49, 0)], ['Bisi 12:50', at(12, 50, 0)], ['Chika 12:50:17', at(12, 50, 17)]] as const).entries()) {
      await page.clock.setFixedTime(time);
      await form.fillText(Q.name, name);
      await form.choose(Q.item, 'Garri');
      await form.submit();
      // Queued before the clock moves on (a toast of the previous submit may still be showing).
      await expect.poll(() => form.waiting().textContent()).toBe(`${i + 1} ${Msg.savedOnPhone}`);
    }
    await context.setOffline(false);
    await expect.poll(() => serverCount(surveyId), { timeout: 20_000 }).toBe(6);

    const { page: office } = desk;
    await new LoginPage(office, env.baseUrl).signIn(org.email, org.password);
    await waitForPath(office, '/survey-bird/organization/insight');
    await office.locator('.responses__table[aria-busy="false"] tbody tr').nth(5).waitFor();
    const dates = await office.locator('.responses__table tbody tr').evaluateAll((rows) =>
      rows.slice(0, 3).map((r) => {
        const cell = r.querySelector('td.responses__date')!;
        return { text: cell.textContent, title: cell.getAttribute('title'), name: r.textContent };
      }),
    );
    const dd = `${String(day.getDate()).padStart(2, '0')}/${String(day.getMonth() + 1).padStart(2, '0')}/${day.getFullYear()}`;
    expect(dates.map((d) => d.text)).toEqual([`${dd} at 12:50:17`, `${dd} at 12:50:00`, `${dd} at 12:49:00`]);
    expect(dates.map((d) => d.name)).toEqual([expect.stringContaining('Chika'), expect.stringContaining('Bisi'), expect.stringContaining('Ada')]);
    for (const d of dates) expect(d.title).toMatch(/^Received by the server Today at \d\d:\d\d:\d\d$/);
    // 1280 px has room for the receipt time in its own column.
    expect(await office.getByRole('columnheader', { name: 'Received' }).isVisible()).toBe(true);
    await office.screenshot({ path: join(SHOTS, 'responses-1280.png') });

    const [download] = await Promise.all([office.waitForEvent('download', { timeout: 60_000 }), office.getByRole('button', { name: 'Export' }).click()]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path()));
    const sheet = workbook.getWorksheet('Responses')!;
    expect((sheet.getRow(1).values as unknown[]).slice(1, 12)).toEqual(['S/N', 'Field user', 'Field user email', 'Captured at', 'Received at', 'Version', 'Revision', 'Status', 'Reviewed by', 'Reviewed at', 'Payout reference']);
    const captured = [2, 3, 4, 5, 6, 7].map((r) => (sheet.getRow(r).getCell(4).value as Date).getTime());
    expect(captured).toEqual(expect.arrayContaining([at(12, 49, 0).getTime(), at(12, 50, 0).getTime(), at(12, 50, 17).getTime()]));
    expect(sheet.getRow(2).getCell(5).value).toBeInstanceOf(Date);
  });
});
