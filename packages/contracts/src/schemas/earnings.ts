import { z } from 'zod';
import { Naira, PageQuery, Paging } from './common.js';
import { HOLD_REASONS } from '../audio-audit.js';
import { HeldBucket } from './audio.js';
import { RESPONSE_STATUSES } from './review.js';
import type { Answer } from './response.js';

/** `since`: the cursor the previous answer gave; absent on a phone's first sync. */
export const ChangesQuery = z.object({ since: z.string().regex(/^\d{1,15}_[\w-]{0,64}$/, 'since must be a cursor this route gave').optional() });
export type ChangesQuery = z.infer<typeof ChangesQuery>;

/** A change to one of the caller's responses: its status, the reviewer's comment, its revision, whether it is paid. */
export const ResponseChange = z.object({
  _id: z.string(),
  clientId: z.string(),
  survey_id: z.string(),
  status: z.enum(RESPONSE_STATUSES),
  comment: z.string().nullable(),
  revision: z.number().int(),
  paid: z.boolean(),
  changedAt: z.string(),
  /** A returned response's answers (its latest revision), so the phone can open it for fixing. */
  answers: z.record(z.string(), z.custom<Answer>(() => true)).optional(),
});
export type ResponseChange = z.infer<typeof ResponseChange>;

/** cursor: pass it as `since` next time; hasMore: call again at once (a page holds at most 500). */
export const ChangesReply = z.object({ changes: z.array(ResponseChange), cursor: z.string(), hasMore: z.boolean() });
export type ChangesReply = z.infer<typeof ChangesReply>;

const Bucket = z.object({ count: z.number().int(), amount: Naira });
/** The caller's money across their surveys, in whole naira. */
export const EarningsReply = z.object({
  awaitingReview: Bucket,
  owed: Bucket,
  paid: Bucket.extend({ lastPaidAt: z.string().nullable() }),
  returned: Bucket,
  rejected: Bucket,
  /** The part of `owed` held for verification, per reason (the same sums the payout dialog leaves out). */
  held: z.array(HeldBucket),
});
export type EarningsReply = z.infer<typeof EarningsReply>;

/** A page of the caller's own responses, newest submission first (Limits.pageSize a page). */
export const MyResponsesQuery = PageQuery.pick({ page: true });
export type MyResponsesQuery = z.infer<typeof MyResponsesQuery>;

/**
 * One of the caller's responses as the Earnings list shows it: its state, the naira it counts for
 * in the earnings buckets, and each time for what it is. Times are ISO; null when it did not happen.
 */
export const MyResponse = z.object({
  _id: z.string(),
  clientId: z.string(),
  survey_id: z.string(),
  status: z.enum(RESPONSE_STATUSES),
  comment: z.string().nullable(),
  revision: z.number().int(),
  amount: Naira,
  paid: z.boolean(),
  /** When the phone captured it (null from phones that did not say). */
  capturedAt: z.string().nullable(),
  /** When the server first received it. */
  submittedAt: z.string(),
  /** When the office approved, returned or rejected it; null while it awaits review. */
  reviewedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  /** Approved and unpaid but held for verification: why (absent when not held). */
  held: z.enum(HOLD_REASONS).optional(),
});
export type MyResponse = z.infer<typeof MyResponse>;

export const MyResponsesReply = z.object({ responses: z.array(MyResponse), ...Paging });
export type MyResponsesReply = z.infer<typeof MyResponsesReply>;
