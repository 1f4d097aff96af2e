import { z } from 'zod';
import { Limits } from '../constants.js';
import { HeldBucket } from './audio.js';
import { Id, Naira, Paging } from './common.js';

const Amount = Naira;

/** draft: responses frozen, not yet transferred; paid: transferred (final); cancelled: responses released. */
export const PayoutStatus = { draft: 'draft', paid: 'paid', cancelled: 'cancelled' } as const;
export type PayoutStatus = (typeof PayoutStatus)[keyof typeof PayoutStatus];
const PAYOUT_STATUSES = Object.values(PayoutStatus) as [PayoutStatus, ...PayoutStatus[]];

export const PayoutMsg = {
  payoutNotFound: 'Payout not found',
  created: 'Payout created',
  paid: 'Payout marked paid',
  cancelled: 'Payout cancelled',
  nothingToPay: 'Nothing to pay: no approved, unpaid responses for these field users',
  /** Followed by who is missing what (nothingPayableDetail). */
  nothingPayable: 'Nothing to pay: every field user owed money has incomplete bank details (see their invitation)',
  keyReused: 'This key was already used for a payout of another survey; make a new key',
  keyReusedOtherFieldUsers: 'This key was already used for a payout of other field users; make a new key',
  keyCancelled: 'The payout made with this key was cancelled; make a new key to create another',
  paidNotCancellable: 'A paid payout cannot be cancelled',
  cancelledNotPayable: 'A cancelled payout cannot be marked paid; create a new payout',
  cancelledNoDownload: 'This payout was cancelled: its bank file cannot be downloaded, as its responses are released and may be in a newer payout',
  notFieldUser: 'fieldUserIds must be field users of this survey',
} as const;

/** The bank detail fields a field user may lack, as the messages name them. */
export const BankField = { bank: 'bank', accountNumber: 'account number', accountName: 'account name' } as const;
export type BankField = (typeof BankField)[keyof typeof BankField];

export const CreatePayoutBody = z.object({
  survey_id: Id,
  fieldUserIds: z.array(Id).min(1, 'Select at least one field user').max(Limits.maxPayoutFieldUsers).optional(),
  /** Made by the client once per "create": repeating the request with it answers the same payout. */
  key: z.uuid({ error: 'key must be a UUID' }),
});
export type CreatePayoutBody = z.infer<typeof CreatePayoutBody>;

export const PayoutLine = z.object({
  fieldUserId: z.string(),
  fullName: z.string(),
  email: z.string(),
  bank: z.string(),
  bankCode: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  /** Present when these bank details were changed less than 24 h before the payout was made: check them. */
  recentBankChange: z.string().nullable().optional(),
  amount: Amount,
  responseCount: z.number().int(),
});
export type PayoutLine = z.infer<typeof PayoutLine>;

/** A field user with something owed who could not be paid, and why. */
export const SkippedFieldUser = z.object({ fieldUserId: z.string(), fullName: z.string(), reason: z.string(), amount: Amount });
export type SkippedFieldUser = z.infer<typeof SkippedFieldUser>;

export const Payout = z.object({
  _id: z.string(),
  survey_id: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  total: Amount,
  responseCount: z.number().int(),
  fieldUserCount: z.number().int(),
  reference: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type Payout = z.infer<typeof Payout>;

export const PayoutDetail = Payout.extend({ lines: z.array(PayoutLine) });
export type PayoutDetail = z.infer<typeof PayoutDetail>;

/** `held`: approved, unpaid responses the survey's pay gate kept out, per reason. */
export const CreatePayoutReply = z.object({ msg: z.string(), payout: PayoutDetail, skipped: z.array(SkippedFieldUser), held: z.array(HeldBucket) });
export type CreatePayoutReply = z.infer<typeof CreatePayoutReply>;

export const PayoutIdParams = z.object({ id: Id });
export const MarkPaidBody = z.object({ reference: z.string({ error: 'Give the transfer reference' }).trim().min(1, 'Give the transfer reference').max(200, 'The reference is too long (max 200)') });
export type MarkPaidBody = z.infer<typeof MarkPaidBody>;
export const PayoutReply = z.object({ msg: z.string(), payout: PayoutDetail });
export type PayoutReply = z.infer<typeof PayoutReply>;

export const PayoutListQuery = z.object({
  survey_id: Id,
  page: z.coerce.number({ error: 'page must be a positive whole number' }).int('page must be a positive whole number').min(1, 'page must be a positive whole number').max(1_000_000).default(1),
});
/** totals: over every payout of the survey the caller may see, not just the page. */
export const PayoutListReply = z.object({
  payouts: z.array(Payout),
  totals: z.object({ draft: Naira, paid: Naira }),
  ...Paging,
});
export type PayoutListReply = z.infer<typeof PayoutListReply>;

export const PayoutDownloadQuery = z.object({
  format: z.enum(['xlsx', 'csv'], { error: 'format must be xlsx or csv' }).default('xlsx'),
  /** csv only: responses lists every response the payout covers instead of the transfer lines. */
  part: z.enum(['transfers', 'responses'], { error: 'part must be transfers or responses' }).default('transfers'),
});
export type PayoutDownloadQuery = z.infer<typeof PayoutDownloadQuery>;
