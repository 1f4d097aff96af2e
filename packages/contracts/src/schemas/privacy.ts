import { z } from 'zod';
import { RESPONSE_STATUSES } from '../review-constants.js';
import { Naira, PageQuery, Paging } from './common.js';

/** The longest retention a survey may set: ten years (a panel survey keeps contacts that long). */
export const RETENTION_MAX_DAYS = 3650;
/** The owner is mailed this many days before a survey's retention deletes its personal data. */
export const RETENTION_WARNING_DAYS = 7;

/** Why a response's personal data is erased: recorded in the audit log. */
export const EraseBody = z.object({
  reason: z.string({ error: 'Give the reason for the erasure' }).trim().min(3, 'Give the reason for the erasure').max(1000, 'The reason is too long (max 1000)'),
});
export type EraseBody = z.infer<typeof EraseBody>;

export const EraseReply = z.object({
  msg: z.string(),
  /** The questions whose answers went (latest texts). */
  erasedQuestions: z.array(z.string()),
  /** Photos and files removed from the file store. */
  erasedFiles: z.number().int(),
  erasedAt: z.string(),
});
export type EraseReply = z.infer<typeof EraseReply>;

/** A respondent is found by a name or phone number they gave (3 characters at least: one letter would list every response). */
export const RespondentsQuery = PageQuery.pick({ page: true }).extend({
  search: z.string({ error: 'Search by a name or phone number (at least 3 characters)' }).trim().min(3, 'Search by a name or phone number (at least 3 characters)').max(200, 'The search is too long (max 200)'),
});
export type RespondentsQuery = z.infer<typeof RespondentsQuery>;
export const RespondentExportQuery = RespondentsQuery.pick({ search: true });
export type RespondentExportQuery = z.infer<typeof RespondentExportQuery>;

/** One response matching a respondent search: where it is and the answers that matched. */
export const RespondentMatch = z.object({
  _id: z.string(),
  survey_id: z.string(),
  surveyTitle: z.string(),
  fieldUser: z.string(),
  createdAt: z.string(),
  status: z.enum(RESPONSE_STATUSES),
  paid: z.boolean(),
  /** The answers holding the search, as "question: answer". */
  matched: z.array(z.string()),
  erasedAt: z.string().nullable(),
});
export type RespondentMatch = z.infer<typeof RespondentMatch>;
export const RespondentsReply = z.object({ responses: z.array(RespondentMatch), ...Paging });
export type RespondentsReply = z.infer<typeof RespondentsReply>;

/** Everything held about the signed-in field user: their account, memberships with bank details, earnings and responses. */
export const MyDataReply = z.object({
  account: z.object({ email: z.string(), fullName: z.string().nullable(), createdAt: z.string() }),
  memberships: z.array(z.object({
    survey_id: z.string(),
    surveyTitle: z.string(),
    organization: z.string(),
    fullName: z.string(),
    phoneNumber: z.string(),
    bank: z.string(),
    accountNumber: z.string(),
    accountName: z.string(),
    rate: Naira,
    invitedAt: z.string(),
  })),
  earnings: z.object({ responses: z.number().int(), paid: Naira, owed: Naira }),
  responses: z.array(z.object({ _id: z.string(), survey_id: z.string(), status: z.enum(RESPONSE_STATUSES), amount: Naira, paid: z.boolean(), submittedAt: z.string() })),
  payouts: z.array(z.object({ survey_id: z.string(), amount: Naira, responses: z.number().int(), reference: z.string().nullable(), paidAt: z.string().nullable(), bank: z.string(), accountNumber: z.string() })),
});
export type MyDataReply = z.infer<typeof MyDataReply>;
