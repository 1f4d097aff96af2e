import type { Deps } from '../../plugins/deps.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { MailQueue } from '../mail/mail-queue.js';
import { mailInvitation } from './invitations.js';

/** The team's queued mails (mail/mail-queue.ts): each kind and the fields that render it. */
export const TeamMail = { invitation: 'invitation', bankChanged: 'bank_changed', bankChangeRejected: 'bank_change_rejected' } as const;

export type InvitationMail = Parameters<typeof mailInvitation>[1];
/** The account number is queued masked: the queue never holds a full one. */
export interface BankChangedMail { email: string; where: string; bank: string; maskedAccount: string; accountName: string }
export interface BankRejectedMail { email: string; where: string; reason: string }

export const queueInvitation = (db: Kysely<Database>, mail: InvitationMail) => MailQueue.enqueue(db, TeamMail.invitation, mail);
export const queueBankChanged = (db: Kysely<Database>, mail: BankChangedMail) => MailQueue.enqueue(db, TeamMail.bankChanged, mail);
export const queueBankRejected = (db: Kysely<Database>, mail: BankRejectedMail) => MailQueue.enqueue(db, TeamMail.bankChangeRejected, mail);

/** "Org (survey "Title")": where a member's bank details live, as a mail names it. */
export const memberPlace = (survey: { organization_name: string; title: string } | undefined) => (survey ? `${survey.organization_name} (survey "${survey.title}")` : 'your organization');

export function registerTeamMails(app: Pick<Deps, 'config' | 'db' | 'mailer'>, queue: MailQueue): void {
  queue.register(TeamMail.invitation, (p) => mailInvitation(app, p as InvitationMail));
  queue.register(TeamMail.bankChanged, async (p) => {
    const m = p as BankChangedMail;
    await app.mailer.send({
      to: m.email,
      subject: 'Survey Bird: your bank details were changed',
      text: `${m.where} changed the bank details you are paid to: ${m.bank || 'no bank'}, account ${m.maskedAccount}, ${m.accountName}. If you did not ask for this change, tell them at once.`,
    });
  });
  queue.register(TeamMail.bankChangeRejected, async (p) => {
    const m = p as BankRejectedMail;
    await app.mailer.send({
      to: m.email,
      subject: 'Survey Bird: your bank change request was not approved',
      text: `${m.where} did not approve the change of bank details you asked for${m.reason ? `: ${m.reason}` : '.'} You are still paid to the details on your Bank details screen.`,
      link: `${app.config.publicUrl}/survey-bird/field-user/bank`,
    });
  });
}
