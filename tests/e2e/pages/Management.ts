import type { Locator, Page } from 'playwright-core';

/** Page models of the management screens (organizations, survey builder, teams). */

export interface Person {
  fullName: string;
  email: string;
  phoneNumber: string;
  bank?: string;
  accountNumber?: string;
  accountName?: string;
  rate?: string;
}

/** The rows of the screen's list table (skeleton rows excluded), once loading has finished. */
async function tableRows(page: Page, region: string): Promise<Locator> {
  const frame = page.getByRole('region', { name: region, exact: true });
  await frame.locator('table[aria-busy="false"]').waitFor();
  return frame.locator('tbody tr');
}

export class OrganizationsPage {
  constructor(private readonly page: Page, private readonly baseUrl: string) {}

  async open(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/survey-bird/master-admin`);
    await this.page.getByRole('heading', { name: 'Organizations' }).waitFor();
    return this;
  }

  /** Fills and submits the Add Organization modal; `closes: false` when the input is expected to be refused. */
  async add(name: string, email: string, closes = true): Promise<void> {
    await this.page.getByRole('button', { name: 'Add Organization' }).first().click();
    const dialog = this.page.getByRole('dialog', { name: 'Add Organization' });
    await dialog.getByLabel('Organization name').fill(name);
    await dialog.getByLabel("Owner's e-mail").fill(email);
    await dialog.getByRole('button', { name: 'Add Organization' }).click();
    if (closes) await dialog.waitFor({ state: 'detached' });
  }

  rows(): Promise<Locator> {
    return tableRows(this.page, 'Organizations');
  }
}

export type QuestionInput = { text: string; type: string; options?: string; list?: string; compulsory?: boolean };

export class SurveyBuilderPage {
  constructor(private readonly page: Page, private readonly baseUrl: string) {}

  async open(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/survey-bird/organization/create`);
    await this.page.getByRole('heading', { name: "Let's get started!" }).waitFor();
    return this;
  }

  typeSelect(): Locator {
    return this.page.getByLabel('Answer type');
  }

  async details(title: string, description: string, expected?: string): Promise<void> {
    await this.page.getByLabel('Survey title').fill(title);
    await this.page.getByLabel('Description').fill(description);
    if (expected !== undefined) await this.page.getByLabel(/Expected responses/).fill(expected);
  }

  async fillQuestion(q: QuestionInput): Promise<void> {
    await this.page.getByLabel('Question', { exact: true }).fill(q.text);
    await this.typeSelect().selectOption(q.type);
    if (q.options !== undefined) await this.page.getByLabel('Options').fill(q.options);
    if (q.list !== undefined) await this.page.getByLabel('Option list').fill(q.list);
    const box = this.page.getByRole('checkbox', { name: 'Compulsory' });
    if ((q.compulsory ?? true) !== (await box.isChecked())) await box.click();
  }

  async add(q: QuestionInput): Promise<void> {
    await this.fillQuestion(q);
    await this.page.getByRole('button', { name: 'Add', exact: true }).click();
  }

  questions(): Locator {
    return this.page.locator('.qlist__item');
  }

  async publish(): Promise<void> {
    await this.page.getByRole('button', { name: 'Publish' }).click();
  }

  /** "Import XLSForm" with a file chosen from the device. */
  async importXlsform(name: string, buffer: Buffer): Promise<void> {
    await this.page.locator('label', { hasText: 'Import XLSForm' }).locator('input[type=file]').setInputFiles({
      name, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer,
    });
  }
}

export class ManageSurveysPage {
  constructor(private readonly page: Page) {}

  /** Through the side menu, as an organization gets there. */
  async openFromMenu(): Promise<this> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Surveys' }).click();
    await this.page.getByRole('heading', { name: 'Manage Survey' }).waitFor();
    return this;
  }

  activeTitle(): Locator {
    return this.page.locator('.survey-row.is-active .survey-row__title');
  }

  /** Opens a survey's dialog (its title): details, Edit, Settings, versions. */
  async openSurvey(title: string): Promise<Locator> {
    await this.page.getByRole('button', { name: title, exact: true }).click();
    return this.page.getByRole('dialog', { name: title });
  }

  /** Opens a survey's settings panel from its row: pay after review, flag thresholds, photo quality, Close / Reopen. */
  async openSettings(title: string): Promise<Locator> {
    await this.page.getByRole('button', { name: `Settings of ${title}`, exact: true }).click();
    const panel = this.page.getByRole('dialog', { name: `Survey settings: ${title}` });
    await panel.waitFor();
    return panel;
  }

  async createNew(): Promise<void> {
    await this.page.getByRole('link', { name: 'Create new survey' }).click();
    await this.page.getByRole('heading', { name: "Let's get started!" }).waitFor();
  }
}

abstract class TeamPage {
  constructor(protected readonly page: Page, protected readonly baseUrl: string) {}

  /** Fills and submits an invite modal; `closes: false` when the input is expected to be refused. */
  protected async invite(button: string, p: Person, closes: boolean): Promise<void> {
    await this.page.getByRole('button', { name: button }).first().click();
    const dialog = this.page.getByRole('dialog', { name: button });
    await dialog.getByLabel('Full name').fill(p.fullName);
    await dialog.getByLabel('E-mail').fill(p.email);
    await dialog.getByLabel('Phone number').fill(p.phoneNumber);
    if (p.bank) await dialog.getByLabel('Bank').selectOption(p.bank);
    if (p.accountNumber) await dialog.getByLabel('Account number').fill(p.accountNumber);
    if (p.accountName) await dialog.getByLabel('Account name').fill(p.accountName);
    if (p.rate) await dialog.getByLabel(/Rate per response/).fill(p.rate);
    await dialog.getByRole('button', { name: button }).click();
    if (closes) await dialog.waitFor({ state: 'detached' });
  }

  heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
}

export class FieldUsersPage extends TeamPage {
  async open(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/survey-bird/organization/field-users`);
    await this.page.getByRole('heading', { name: /^Manage .* Field Users$/ }).waitFor();
    return this;
  }

  inviteFieldUser(p: Person, closes = true): Promise<void> {
    return this.invite('Invite field user', p, closes);
  }

  rows(): Promise<Locator> {
    return tableRows(this.page, 'Field users');
  }

  async row(fullName: string): Promise<Locator> {
    return (await this.rows()).filter({ hasText: fullName });
  }

  async assignSupervisor(fieldUser: string, supervisor: string): Promise<void> {
    await (await this.row(fieldUser)).getByRole('button', { name: 'Click to assign a supervisor' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Assign a supervisor' });
    await dialog.getByRole('button', { name: supervisor }).click();
    await dialog.waitFor({ state: 'detached' });
  }
}

export class SupervisorsPage extends TeamPage {
  async open(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/survey-bird/organization/supervisors`);
    await this.page.getByRole('heading', { name: /^Manage .* Supervisors$/ }).waitFor();
    return this;
  }

  inviteSupervisor(p: Person, closes = true): Promise<void> {
    return this.invite('Invite supervisor', p, closes);
  }

  rows(): Promise<Locator> {
    return tableRows(this.page, 'Supervisors');
  }
}

export class SupervisorFieldUsersPage {
  constructor(private readonly page: Page, private readonly baseUrl: string) {}

  async open(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/survey-bird/supervisor/field-user/manage`);
    await this.page.getByRole('heading', { name: /^Manage .* Field Users$/ }).waitFor();
    return this;
  }

  rows(): Promise<Locator> {
    return tableRows(this.page, 'Your field users');
  }
}
