import { ApiMsg, Msg, QuestionType } from '@survey-bird/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, type Browser } from './harness/browser';
import { mailedLink, uniqueEmail } from './harness/users';
import { storedAccounts, toast, waitForPath } from './pages/app';
import { LoginPage } from './pages/LoginPage';
import { FieldUsersPage, ManageSurveysPage, OrganizationsPage, SupervisorFieldUsersPage, SupervisorsPage, SurveyBuilderPage, type Person } from './pages/Management';
import { RegisterPage } from './pages/RegisterPage';

const env = inject('env');

/**
 * The management path end to end: the master admin adds an organization, its owner registers from
 * the mailed link, builds a survey with every question type, invites a team and assigns a
 * supervisor, who then signs in and sees exactly their own field user.
 */
describe('organization setup, from the master admin to the supervisor', () => {
  let b: Browser;
  let login: LoginPage;
  const owner = { email: uniqueEmail('owner'), password: 'owner-password-1' };
  const orgName = `Delta Field Research ${owner.email.slice(6, 14)}`;
  const title = 'Market price watch';
  const ada: Person = { fullName: 'Ada Obi', email: uniqueEmail('ada'), phoneNumber: '08031111111', bank: 'Access Bank', accountNumber: '0123456789', accountName: 'Ada Obi', rate: '250' };
  const bayo: Person = { fullName: 'Bayo Lawal', email: uniqueEmail('bayo'), phoneNumber: '08032222222', rate: '300' };
  const supervisor: Person = { fullName: 'Chika Umeh', email: uniqueEmail('chika'), phoneNumber: '08033333333', bank: 'Zenith Bank', accountNumber: '2012345678', accountName: 'Chika Umeh' };

  beforeAll(async () => {
    b = await openBrowser();
    login = new LoginPage(b.page, env.baseUrl);
  });
  afterAll(() => b?.close());

  it('the master admin adds an organization', async () => {
    await login.signIn(env.adminEmail, env.adminPassword);
    const orgs = await new OrganizationsPage(b.page, env.baseUrl).open();

    await orgs.add('ab', owner.email, false);
    await toast(b.page, ApiMsg.organizationNameShort).waitFor();
    await b.page.getByRole('dialog', { name: 'Add Organization' }).getByRole('button', { name: 'Close' }).click();

    await orgs.add(orgName, owner.email);
    await toast(b.page, ApiMsg.organizationCreated).waitFor();
    await expect.poll(async () => (await orgs.rows()).filter({ hasText: orgName }).count()).toBe(1);
  });

  // The invitation link carries its token: it proves the mailbox, so no confirmation mail follows.
  it('the owner registers from the mailed link and signs in', async () => {
    const register = new RegisterPage(b.page);
    await register.registerFrom(mailedLink(env, owner.email, '/register'), owner.password);
    await toast(b.page, Msg.accountCreated).waitFor();
    await login.signIn(owner.email, owner.password);
    expect((await storedAccounts(b.page)).map((a) => a.user)).toEqual([owner.email, env.adminEmail]);
  });

  it('builds a survey with every question type and publishes it', async () => {
    const builder = await new SurveyBuilderPage(b.page, env.baseUrl).open();
    expect(await builder.typeSelect().locator(`option[value="${QuestionType.files}"]`).isDisabled()).toBe(true);

    await builder.add({ text: '   ', type: QuestionType.text });
    await toast(b.page, ApiMsg.questionTextEmpty).waitFor();
    await builder.add({ text: 'Which market?', type: QuestionType.select, options: 'Balogun,  ' });
    await toast(b.page, ApiMsg.optionsMinimum).waitFor();

    await builder.details(title, 'Weekly prices of staples in Lagos markets.', '400');
    await builder.add({ text: 'Which market?', type: QuestionType.select, options: 'Balogun, Mile 12, Oyingbo' });
    await builder.add({ text: 'Trader name', type: QuestionType.text, compulsory: false });
    await builder.add({ text: 'Local government area', type: QuestionType.largeSelect, list: 'Ikeja\nEpe\nBadagry\nIkorodu' });
    await builder.add({ text: 'Items in stock', type: QuestionType.checkbox, options: 'Rice, Beans, Garri' });
    await builder.add({ text: 'Shop front', type: QuestionType.image });
    await builder.add({ text: 'Where is the shop?', type: QuestionType.liveLocation });
    await builder.add({ text: 'Price board', type: QuestionType.liveImages });
    expect(await builder.questions().count()).toBe(7);

    // Edit loads a question, Save replaces it in place.
    await builder.questions().nth(1).getByRole('button', { name: /Edit/ }).click();
    await b.page.getByLabel('Question', { exact: true }).fill('Trader full name');
    await b.page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => builder.questions().nth(1).locator('.qlist__text').innerText()).toBe('Trader full name');
    expect(await builder.questions().count()).toBe(7);

    // The half-built survey survives a reload.
    await b.page.waitForTimeout(600);
    await b.page.reload();
    await b.page.getByRole('heading', { name: "Let's get started!" }).waitFor();
    expect(await builder.questions().count()).toBe(7);
    expect(await b.page.getByLabel('Survey title').inputValue()).toBe(title);

    await builder.publish();
    await toast(b.page, Msg.surveyPublished).waitFor();
    await waitForPath(b.page, '/survey-bird/organization/manage');
    expect(await new ManageSurveysPage(b.page).activeTitle().innerText()).toBe(title);
  });

  it('invites two field users and a supervisor, then assigns the supervisor', async () => {
    const fieldUsers = await new FieldUsersPage(b.page, env.baseUrl).open();
    expect(await fieldUsers.heading().innerText()).toBe(`Manage ${title} Field Users`);
    await fieldUsers.inviteFieldUser({ ...ada, fullName: 'Ad' }, false);
    await toast(b.page, ApiMsg.fullNameShort).waitFor();
    await b.page.getByRole('dialog', { name: 'Invite field user' }).getByRole('button', { name: 'Cancel' }).click();

    await fieldUsers.inviteFieldUser(ada);
    await toast(b.page, ApiMsg.fieldUserInvited).waitFor();
    await fieldUsers.inviteFieldUser(bayo);
    await expect.poll(async () => (await fieldUsers.rows()).count()).toBe(2);

    const supervisors = await new SupervisorsPage(b.page, env.baseUrl).open();
    await supervisors.inviteSupervisor({ ...supervisor, accountNumber: '12345' }, false);
    await toast(b.page, ApiMsg.invalidAccountNumber).waitFor();
    await b.page.getByRole('dialog', { name: 'Invite supervisor' }).getByRole('button', { name: 'Cancel' }).click();
    await supervisors.inviteSupervisor(supervisor);
    await toast(b.page, ApiMsg.supervisorInvited).waitFor();
    await expect.poll(async () => (await supervisors.rows()).filter({ hasText: supervisor.fullName }).count()).toBe(1);

    await fieldUsers.open();
    await fieldUsers.assignSupervisor(ada.fullName, supervisor.fullName);
    await toast(b.page, ApiMsg.supervisorAssigned).waitFor();
    await expect.poll(async () => (await fieldUsers.row(ada.fullName)).innerText()).toContain(supervisor.fullName);
    expect(await (await fieldUsers.row(bayo.fullName)).innerText()).toContain('Click to assign a supervisor');
  });

  it('the supervisor registers, signs in and sees exactly their field user', async () => {
    const register = new RegisterPage(b.page);
    const password = 'supervisor-password-1';
    await register.registerFrom(mailedLink(env, supervisor.email, '/register'), password);
    await login.signIn(supervisor.email, password);
    expect((await storedAccounts(b.page))[0]?.user).toBe(supervisor.email);

    const mine = await new SupervisorFieldUsersPage(b.page, env.baseUrl).open();
    const rows = await mine.rows();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(ada.fullName);
    expect(await rows.first().innerText()).toContain(ada.email);
  });
});
