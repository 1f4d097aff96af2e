import { ApiMsg, Msg } from '@survey-bird/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, type Browser } from './harness/browser';
import { apiLogin, createOrganizationUser, createUnverifiedUser, currentUserStatus, uniqueEmail, type TestUser } from './harness/users';
import { pathOf, setStoredAccounts, storedAccounts, toast, waitForPath } from './pages/app';
import { Header } from './pages/Header';
import { LoginPage } from './pages/LoginPage';
import { ManageAccountPage } from './pages/ManageAccountPage';

const env = inject('env');

describe('accounts on this device', () => {
  let b: Browser;
  let login: LoginPage;
  let header: Header;
  let alice: TestUser;
  let bola: TestUser;

  beforeAll(async () => {
    [alice, bola] = await Promise.all([createOrganizationUser(env, 'alice'), createOrganizationUser(env, 'bola')]);
    b = await openBrowser();
    login = new LoginPage(b.page, env.baseUrl);
    header = new Header(b.page);
  });
  afterAll(() => b?.close());

  it("checks the e-mail first, then the password", async () => {
    await login.open();
    await login.submit();
    await toast(b.page, Msg.provideEmail).waitFor();
    await login.password().fill('something');
    await login.submit();
    await toast(b.page, Msg.provideEmail).first().waitFor();
    await login.email().fill(alice.email);
    await login.password().fill('');
    await login.submit();
    await toast(b.page, ApiMsg.providePassword).waitFor();
    expect(await storedAccounts(b.page)).toEqual([]);
  });

  it("toasts the server's message for a wrong password", async () => {
    await login.open(`?email=${encodeURIComponent(alice.email)}`);
    expect(await login.email().inputValue()).toBe(alice.email);
    await login.password().fill('not-the-password');
    await login.submit();
    await toast(b.page, ApiMsg.wrongCredentials).waitFor();
    expect(await pathOf(b.page)).toBe('/login');
  });

  it('signs in, stores the account in front and follows redirect', async () => {
    await login.open(`?redirect=${encodeURIComponent('/survey-bird/organization/insight')}`);
    await login.fill(alice.email, alice.password);
    await login.submit();
    await toast(b.page, ApiMsg.loginSuccess).waitFor();
    await waitForPath(b.page, '/survey-bird/organization/insight');
    await b.page.getByRole('heading', { name: 'Insight' }).waitFor();
    expect((await storedAccounts(b.page)).map((a) => a.user)).toEqual([alice.email]);
    expect(await header.activeAccount()).toBe(alice.email);
    const active = b.page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
    expect(await active.innerText()).toContain('Insight');
  });

  it('keeps a user out of screens of another role', async () => {
    await b.page.goto(`${env.baseUrl}/survey-bird/master-admin`);
    await waitForPath(b.page, '/survey-bird/organization/insight');
  });

  it('adds a second account and switches between them', async () => {
    await header.addAccount();
    await waitForPath(b.page, '/login');
    await login.fill(bola.email, bola.password);
    await login.submit();
    // No redirect: the new account lands on its role's home.
    await waitForPath(b.page, '/survey-bird/organization/insight');
    expect((await storedAccounts(b.page)).map((a) => a.user)).toEqual([bola.email, alice.email]);
    expect(await header.activeAccount()).toBe(bola.email);

    await b.page.goto(`${env.baseUrl}/survey-bird/organization/insight`);
    await b.page.getByRole('heading', { name: 'Insight' }).waitFor();
    await header.switchTo(alice.email);
    await waitForPath(b.page, '/');
    expect(await header.activeAccount()).toBe(alice.email);
    expect((await storedAccounts(b.page)).map((a) => a.user)).toEqual([alice.email, bola.email]);
  });

  it('signs one account out and the server forgets its token', async () => {
    const bolaToken = (await storedAccounts(b.page)).find((a) => a.user === bola.email)!.token;
    const manage = await new ManageAccountPage(b.page, env.baseUrl).open();
    expect(await manage.sessions().count()).toBe(2);
    await manage.signOut(bola.email);
    await toast(b.page, Msg.accountSignedOut).waitFor();
    await expect.poll(() => manage.sessions().count()).toBe(1);
    expect((await storedAccounts(b.page)).map((a) => a.user)).toEqual([alice.email]);
    expect(await currentUserStatus(env, bolaToken)).toBe(401);
  });

  it('refuses a sixth account', async () => {
    const current = await storedAccounts(b.page);
    const fakes = [1, 2, 3, 4].map((n) => ({ user: uniqueEmail(`fake${n}`), token: `fake-token-${n}` }));
    await setStoredAccounts(b.page, [...current, ...fakes]);
    await b.page.reload();
    await header.addAccount();
    await toast(b.page, Msg.tooManyAccounts).waitFor();
    expect(await pathOf(b.page)).not.toBe('/login');

    await login.open();
    await login.fill(bola.email, bola.password);
    await login.submit();
    await toast(b.page, Msg.tooManyAccounts).waitFor();
    expect(await storedAccounts(b.page)).toHaveLength(5);
    await setStoredAccounts(b.page, current);
  });

  it('changes the password and signs the other devices out', async () => {
    const otherDevice = await apiLogin(env, alice);
    const browserToken = (await storedAccounts(b.page))[0]!.token;
    const manage = await new ManageAccountPage(b.page, env.baseUrl).open();
    expect(await b.page.getByLabel('Sign out from all devices after password change').isChecked()).toBe(true);

    await manage.changePassword('', 'x');
    await toast(b.page, ApiMsg.provideOldPassword).waitFor();
    await manage.changePassword(alice.password, 'new-password-2', 'different');
    await toast(b.page, Msg.passwordDontMatch).waitFor();
    await manage.changePassword(alice.password, 'new-password-2');
    await toast(b.page, ApiMsg.passwordChanged).waitFor();

    expect(await currentUserStatus(env, otherDevice)).toBe(401);
    expect(await currentUserStatus(env, browserToken)).toBe(200);
    await expect(apiLogin(env, alice)).rejects.toThrow();
    alice = { ...alice, password: 'new-password-2' };
    expect(await apiLogin(env, alice)).toBeTruthy();
  });

  it('sends a revoked session back to login with the e-mail filled in', async () => {
    const token = (await storedAccounts(b.page))[0]!.token;
    await fetch(`${env.baseUrl}/api/v1/user/sign-out`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    await b.page.goto(`${env.baseUrl}/survey-bird/organization/insight`);
    await waitForPath(b.page, '/login');
    expect(new URL(b.page.url()).searchParams.get('email')).toBe(alice.email);
    await toast(b.page, Msg.invalidOrExpiredToken).waitFor();
  });

  it('signs out from all accounts', async () => {
    await login.signIn(alice.email, alice.password);
    const manage = await new ManageAccountPage(b.page, env.baseUrl).open();
    await b.page.getByRole('button', { name: 'Sign out from all accounts' }).click();
    await b.page.getByRole('alertdialog').getByRole('button', { name: 'Sign out all' }).click();
    await toast(b.page, Msg.allSessionsSignedOut).waitFor();
    await waitForPath(b.page, '/');
    expect(await storedAccounts(b.page)).toEqual([]);
    await header.signInButton().waitFor();
    void manage;
  });

  it('sends an unverified user home with Access Denied and resends the mail', async () => {
    const user = await createUnverifiedUser(env);
    await login.signIn(user.email, user.password);
    await b.page.goto(`${env.baseUrl}/survey-bird/organization/insight`);
    const dialog = b.page.getByRole('alertdialog', { name: 'Access Denied' });
    await dialog.waitFor();
    await waitForPath(b.page, '/');
    await dialog.getByRole('button', { name: 'Resend verification email' }).click();
    await toast(b.page, ApiMsg.verificationResent).waitFor();
  });

  it('offers a new verification link when the link has expired', async () => {
    await b.page.goto(`${env.baseUrl}/confirm-email/not-a-valid-token`);
    const dialog = b.page.getByRole('alertdialog', { name: 'Link Expired!' });
    await dialog.waitFor();
    await waitForPath(b.page, '/login');
    await dialog.getByRole('button', { name: 'Resend verification link' }).click();
    await toast(b.page, ApiMsg.verificationResent).waitFor();
  });
});
