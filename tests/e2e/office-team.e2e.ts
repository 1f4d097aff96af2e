import { ApiMsg, Msg } from '@survey-bird/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createSurvey, createTeamMember, mailedLink, uniqueEmail, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { LoginPage } from './pages/LoginPage';
import { RegisterPage } from './pages/RegisterPage';

const env = inject('env');

/** 20 field users; `broken` rows get a 9-digit account number and an e-mail without its @. */
function csv(tag: string, broken: number[] = []): Buffer {
  const lines = ['Full name,Email,Phone number,Bank,Account number,Account name,Rate'];
  for (let i = 1; i <= 20; i++) {
    const bad = broken.includes(i);
    const email = bad && i % 2 === 0 ? `person${i}-${tag}.e2e.test` : `person${i}-${tag}@e2e.test`;
    lines.push(`Person ${i} ${tag},${email},0803000${String(i).padStart(4, '0')},Access Bank,${bad && i % 2 === 1 ? '012345678' : '0123456789'},Person ${i},150`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/**
 * Running a large team from the office: the owner invites an analyst (who registers from the mailed
 * link and sees no review or payout controls), uploads a 20-row file with 2 errors, fixes it and
 * invites everyone, changes a rate, approves a field user's bank change; the audit log lists it all.
 */
describe('an office running a team', () => {
  let b: Browser;
  let login: LoginPage;
  let owner: TestUser;
  let fieldUser: TestUser;
  const analyst = { email: uniqueEmail('analyst'), password: 'analyst-password-1' };
  const tag = analyst.email.slice(8, 14);

  beforeAll(async () => {
    owner = await createOrganizationUser(env, 'office-owner');
    const surveyId = await createSurvey(env, owner, 'Team census');
    fieldUser = await createTeamMember(env, owner, surveyId, 'field-user');
    // The field user asks to be paid elsewhere; the office approves it below.
    await apiPost(env, '/me/bank', { survey_id: surveyId, bank: 'GTBank', accountNumber: '5555555555', accountName: 'Amina Bello' }, await apiLogin(env, fieldUser));
    b = await openBrowser();
    login = new LoginPage(b.page, env.baseUrl);
  });
  afterAll(() => b?.close());

  it('the owner invites an analyst, who registers from the mailed link and sees no review or payout controls', async () => {
    await login.signIn(owner.email, owner.password);
    await b.page.goto(`${env.baseUrl}/survey-bird/organization/office-users`);
    await b.page.getByRole('button', { name: 'Invite office user' }).first().click();
    const dialog = b.page.getByRole('dialog', { name: 'Invite office user' });
    await dialog.getByLabel('E-mail').fill(analyst.email);
    await dialog.getByRole('radio', { name: /Analyst/ }).check();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => b.page.getByRole('region', { name: 'Office users' }).innerText()).toContain(analyst.email);

    await new RegisterPage(b.page).registerFrom(mailedLink(env, analyst.email, '/register'), analyst.password);
    await toast(b.page, Msg.accountCreated).waitFor();
    await login.signIn(analyst.email, analyst.password);
    await b.page.waitForURL((url) => url.pathname.endsWith('/organization/insight'));
    const nav = b.page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Insight' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Payouts' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Bank changes' }).count()).toBe(0);
    expect(await b.page.getByRole('button', { name: /Approve|Return for fixing|Reject/ }).count()).toBe(0);
  });

  it('the owner uploads a file with 2 errors, fixes it, and invites all 20', async () => {
    await login.signIn(owner.email, owner.password);
    await b.page.goto(`${env.baseUrl}/survey-bird/organization/field-users`);
    await b.page.getByRole('button', { name: 'Upload file' }).click();
    const dialog = b.page.getByRole('dialog', { name: /Upload/ });
    const file = dialog.getByLabel('File of people');
    await file.setInputFiles({ name: 'team.csv', mimeType: 'text/csv', buffer: csv(tag, [4, 7]) });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => dialog.locator('.bulk__summary').innerText()).toContain('18 new. 0 already on the survey. 2 with errors');
    expect(await dialog.locator('.bulk__row--error').count()).toBe(2);

    await file.setInputFiles({ name: 'team.csv', mimeType: 'text/csv', buffer: csv(tag) });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => dialog.locator('.bulk__summary').innerText()).toContain('20 new.');
    await dialog.getByRole('button', { name: 'Invite 20 people' }).click();
    await expect.poll(() => dialog.locator('.bulk__summary').innerText()).toContain('20 invited.');
    await dialog.getByRole('button', { name: 'Done' }).click();
    // The invitations' mails leave through the queue after the reply.
    await expect.poll(() => { try { return mailedLink(env, `person20-${tag}@e2e.test`, '/register'); } catch { return ''; } }, { timeout: 15_000 }).toContain('/register');
  });

  it('the owner changes a rate and approves a bank change', async () => {
    await b.page.getByLabel('Search field users').fill('Amina');
    await b.page.getByRole('button', { name: 'Edit Amina Bello' }).click();
    const edit = b.page.getByRole('dialog', { name: 'Edit Amina Bello' });
    await edit.getByLabel('Rate per response (₦)').fill('650');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await toast(b.page, ApiMsg.memberUpdated).waitFor();

    await b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bank changes' }).click();
    await b.page.getByRole('button', { name: 'Approve the change for Amina Bello' }).click();
    await toast(b.page, ApiMsg.bankChangeApproved).waitFor();
    await b.page.getByText('No request waiting').waitFor();
  });

  it('the audit log lists the invitations, the rate, the bank change and its approval', async () => {
    await b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    const table = b.page.getByRole('region', { name: 'Audit log' });
    await expect.poll(() => table.innerText()).toContain('Bank change approve');
    const text = await table.innerText();
    for (const action of ['Bank change approve', 'Member bank', 'Member rate', 'Member invite']) expect(text, action).toContain(action);
    expect(text).toContain('5555555555');
    // Older entries by their action: the analyst's invitation and the 21 invitations (the file's 20 and Amina).
    const filter = b.page.locator('.audit__filters select');
    await filter.selectOption({ label: 'Office user invite' });
    await expect.poll(() => table.innerText(), { timeout: 10_000 }).toContain(analyst.email);
    await filter.selectOption({ label: 'Member invite' });
    await expect.poll(() => b.page.locator('.pager__text').innerText(), { timeout: 10_000 }).toContain('of 21');
  });
});
