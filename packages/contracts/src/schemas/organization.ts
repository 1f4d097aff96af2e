import { z } from 'zod';
import { Limits } from '../constants.js';
import { ApiMsg } from '../api-messages.js';
import { Id, Paging, ValidEmail } from './common.js';
import { StaleSyncDays } from './device.js';

export const Organization = z.object({
  _id: z.string(),
  organization_name: z.string(),
  email: z.string(),
  createdAt: z.string(),
  /** No sync for this many days with work on the phone: highlighted on the field-user pages and mailed to supervisors. */
  staleSyncDays: z.number().int(),
});
export type Organization = z.infer<typeof Organization>;

export const OrganizationReply = z.object({ organization: Organization });
export type OrganizationReply = z.infer<typeof OrganizationReply>;

export const OrganizationListReply = z.object({ organizations: z.array(Organization), ...Paging });
export type OrganizationListReply = z.infer<typeof OrganizationListReply>;

export const CreateOrganizationBody = z.object({
  organizationName: z
    .string({ error: ApiMsg.organizationNameShort })
    .trim()
    .min(Limits.minOrganizationName, ApiMsg.organizationNameShort)
    .max(Limits.maxTitle, `Organization name is too long (max ${Limits.maxTitle})`),
  email: ValidEmail,
});
export type CreateOrganizationBody = z.infer<typeof CreateOrganizationBody>;

export const CreateOrganizationReply = z.object({ msg: z.string(), organization: Organization });
export type CreateOrganizationReply = z.infer<typeof CreateOrganizationReply>;

/** The organization's own settings; each field is optional, at least one is given. */
export const OrganizationSettingsBody = z
  .object({ staleSyncDays: StaleSyncDays.optional() })
  .refine((b) => b.staleSyncDays !== undefined, { message: 'Provide staleSyncDays' });
export type OrganizationSettingsBody = z.infer<typeof OrganizationSettingsBody>;

/** Master admin's Send mail: one organization, or all when organization_id is omitted. */
export const SendMailBody = z.object({
  organization_id: Id.optional(),
  subject: z.string({ error: 'Provide a subject' }).trim().min(1, 'Provide a subject').max(200, 'Subject is too long (max 200)'),
  body: z.string({ error: 'Provide a message' }).trim().min(1, 'Provide a message').max(20_000, 'Message is too long'),
});
export type SendMailBody = z.infer<typeof SendMailBody>;
export const SendMailReply = z.object({ msg: z.string(), recipients: z.number().int() });
export type SendMailReply = z.infer<typeof SendMailReply>;
