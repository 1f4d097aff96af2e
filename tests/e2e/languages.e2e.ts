import { QuestionType } from '@survey-bird/contracts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { LoginPage } from './pages/LoginPage';

const env = inject('env');
const TITLE = 'Rijiyoyi';
const Q = { name: 'Respondent name', pump: 'Is the pump working?' } as const;
/** Where the screenshots go, one per screen per language at 390 px (named in the closing note). */
const SHOTS = join(process.cwd(), '.e2e', 'languages');

async function setLanguage(token: string, language: string): Promise<void> {
  const res = await fetch(`${env.baseUrl}/api/v1/user/language`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ language }) });
  if (!res.ok) throw new Error(`PATCH /user/language: ${res.status}`);
}

describe('the app in the field user\'s language', () => {
  let b: Browser;
  let fieldUser: TestUser;
  let token: string;

  beforeAll(async () => {
    const org = await createOrganizationUser(env, 'lang-org');
    const reply = await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
      title: TITLE,
      questions: [
        { text: Q.name, type: QuestionType.text, compulsory: true, options: [] },
        { text: Q.pump, type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] },
      ],
    }, await apiLogin(env, org));
    fieldUser = await createTeamMember(env, org, reply.survey._id, 'field-user');
    token = await apiLogin(env, fieldUser);
    b = await openBrowser(PHONE);
    await new LoginPage(b.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await b?.close();
  });

  it('switches to Hausa in Settings, refuses a missing answer offline in Hausa, syncs, and opens Earnings in Hausa', async () => {
    const { page, context } = b;
    await page.getByRole('heading', { name: TITLE }).waitFor();
    // On a phone the side pane is the bottom bar: Settings by its short label.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Settings/ }).click();
    await page.getByRole('dialog').getByRole('combobox').selectOption('ha');
    await page.getByRole('dialog').getByRole('heading', { name: "Saitunan ma'aikacin fili" }).waitFor();
    await page.getByRole('button', { name: 'An gama' }).click();
    // Remembered on the server, so mails and another phone follow.
    await expect.poll(async () => ((await (await fetch(`${env.baseUrl}/api/v1/user`, { headers: { authorization: `Bearer ${token}` } })).json()) as { user: { language: string } }).user.language).toBe('ha');

    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: TITLE }).waitFor();
    await page.locator('.sync-strip__net', { hasText: 'Ba layi' }).waitFor();
    await page.getByRole('textbox', { name: new RegExp(Q.name) }).fill('Aminu');
    await page.getByRole('button', { name: 'Aika' }).click();
    await toast(page, 'Da fatan ka cike duk wuraren da ake buƙata: tambaya 1 ta ɓace').waitFor();
    await page.locator('.q__error', { hasText: 'Wannan tambayar ta zama dole' }).waitFor();
    await page.getByRole('group', { name: new RegExp(Q.pump.replace('?', '\\?')) }).locator('select').selectOption('Yes');
    await page.getByRole('button', { name: 'Aika' }).click();
    await toast(page, 'an ajiye, za a aika idan an samu intanet').waitFor();
    await expect.poll(() => page.getByTestId('waiting').textContent()).toBe('1 an ajiye a wannan wayar');

    await context.setOffline(false);
    await page.getByRole('button', { name: 'Yi aiki tare yanzu' }).click();
    await expect.poll(() => page.getByTestId('waiting').textContent(), { timeout: 30_000 }).toBe('Babu abin da ke jiran aikawa');
    await page.getByRole('link', { name: 'Kuɗi' }).first().click();
    await page.getByRole('heading', { name: 'Kuɗin shiga' }).waitFor();
    await page.getByText('An amince, za a biya').or(page.getByText('Ana jiran dubawa')).first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'ha-earnings-after-sync.png'), fullPage: true });
  });

  const screens = [
    ['form', '/survey-bird/field-user'],
    ['responses', '/survey-bird/field-user/response'],
    ['earnings', '/survey-bird/field-user/earnings'],
    ['bank', '/survey-bird/field-user/bank'],
    ['map', '/survey-bird/field-user/map'],
    ['backchecks', '/survey-bird/field-user/backchecks'],
  ] as const;

  it('keeps every field-user screen within 390 px in each language, no text cut', async () => {
    const { page } = b;
    const problems: string[] = [];
    for (const lang of ['en', 'ha', 'yo', 'ig', 'pcm']) {
      await setLanguage(token, lang);
      for (const [name, path] of screens) {
        await page.goto(`${env.baseUrl}${path}`);
        await page.locator('main h1, main .fu-form__title').first().waitFor();
        await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(SHOTS, `${lang}-${name}.png`), fullPage: true });
        const found = await page.evaluate(() => {
          const width = document.documentElement.clientWidth;
          const out: string[] = [];
          if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth}px wide`);
          for (const el of document.querySelectorAll<HTMLElement>('body *')) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || el.closest('.scroll-frame, .map-frame, .leaflet-container')) continue;
            if (r.right > width + 1) out.push(`${el.tagName.toLowerCase()}.${el.className} ends at ${Math.round(r.right)}px`);
            const style = getComputedStyle(el);
            const clips = style.overflowX === 'hidden' || style.textOverflow === 'ellipsis';
            if (clips && el.scrollWidth > el.clientWidth + 1 && el.textContent?.trim() && !el.matches('.visually-hidden, .menu__email, .account-btn__email, .survey-switch__title, .pick-list__title')) out.push(`${el.tagName.toLowerCase()}.${el.className} cuts "${el.textContent.trim().slice(0, 40)}"`);
          }
          return out;
        });
        problems.push(...found.map((p) => `${lang} ${name}: ${p}`));
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the office screens in the office user\'s language', () => {
  let b: Browser;
  let org: TestUser;
  let token: string;

  beforeAll(async () => {
    org = await createOrganizationUser(env, 'lang-office');
    token = await apiLogin(env, org);
    await apiPost(env, '/survey/create', { title: TITLE, questions: [{ text: Q.name, type: QuestionType.text, compulsory: true, options: [] }] }, token);
    b = await openBrowser();
    await new LoginPage(b.page, env.baseUrl).signIn(org.email, org.password);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('switches to Hausa in the account menu, remembered on the server and after a reload', async () => {
    const { page } = b;
    await page.getByRole('heading', { name: /Total responses/ }).waitFor();
    await page.getByRole('button', { name: org.email }).click();
    await page.locator('.menu__language select').selectOption('ha');
    await page.getByRole('heading', { name: 'Jimillar amsoshi' }).waitFor();
    await expect.poll(async () => ((await (await fetch(`${env.baseUrl}/api/v1/user`, { headers: { authorization: `Bearer ${token}` } })).json()) as { user: { language: string } }).user.language).toBe('ha');
    await page.reload();
    await page.getByRole('heading', { name: 'Ayyukan mako' }).waitFor();
    await page.goto(`${env.baseUrl}/survey-bird/organization/payouts`);
    await page.getByRole('button', { name: 'Ƙirƙiri biyan kuɗi' }).waitFor();
  });

  it('keeps the translated office screens within 390 px in Hausa, no text cut', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 390, height: 844 });
    const problems: string[] = [];
    for (const [name, path] of [['insight', '/survey-bird/organization/insight'], ['payouts', '/survey-bird/organization/payouts'], ['field-users', '/survey-bird/organization/field-users'], ['supervisors', '/survey-bird/organization/supervisors']] as const) {
      await page.goto(`${env.baseUrl}${path}`);
      await page.locator('main h1').first().waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ha');
      await page.waitForTimeout(300);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `ha-office-${name}.png`), fullPage: true });
      const found = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const out: string[] = [];
        if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth}px wide`);
        for (const el of document.querySelectorAll<HTMLElement>('body *')) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || el.closest('.scroll-frame, .dt-frame, .responses__frame, .payout-lines__frame, .map-frame, .leaflet-container')) continue;
          if (r.right > width + 1) out.push(`${el.tagName.toLowerCase()}.${el.className} ends at ${Math.round(r.right)}px`);
        }
        return out;
      });
      problems.push(...found.map((p) => `${name}: ${p}`));
    }
    expect(problems).toEqual([]);
  });
});
