import { z } from 'zod';
import { ApiMsg } from '../api-messages.js';
import { Id, PageQuery, Paging } from './common.js';

/** Every API token starts with this, so a scanner (or a person) can tell one in a log or a commit. */
export const API_TOKEN_PREFIX = 'sb_';
/** A token lives at most this many days: a forgotten script's key does not live for ever. */
export const MAX_TOKEN_DAYS = 366;
/** Active (unrevoked, unexpired) tokens one office user may hold. */
export const MAX_TOKENS_PER_USER = 20;

export const CreateTokenBody = z.object({
  name: z.string({ error: ApiMsg.tokenName }).trim().min(1, ApiMsg.tokenName).max(100, ApiMsg.tokenName),
  /** Limits the token to one survey; left out, it reads every survey its creator reads. */
  surveyId: Id.optional(),
  /** When the token stops working: in the future, at most MAX_TOKEN_DAYS away. */
  expiresAt: z.string({ error: ApiMsg.tokenExpiry }).max(40, ApiMsg.tokenExpiry).refine((v) => /^\d{4}-\d{2}-\d{2}(T|$)/.test(v) && Number.isFinite(Date.parse(v)), ApiMsg.tokenExpiry),
});
export type CreateTokenBody = z.input<typeof CreateTokenBody>;

export const ApiToken = z.object({
  _id: z.string(),
  name: z.string(),
  /** The first characters of the token (never the whole): enough to recognise it in a script. */
  hint: z.string(),
  surveyId: z.string().nullable(),
  surveyTitle: z.string().nullable(),
  /** Who made it (the owner's list shows every office user's tokens). */
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const TokenListQuery = PageQuery;
export const TokenListReply = z.object({ tokens: z.array(ApiToken), ...Paging });
export type TokenListReply = z.infer<typeof TokenListReply>;
/** The token itself is in this reply only: the server keeps its hash. */
export const CreateTokenReply = z.object({ token: ApiToken, secret: z.string() });
export type CreateTokenReply = z.infer<typeof CreateTokenReply>;
export const TokenParams = z.object({ id: Id });
