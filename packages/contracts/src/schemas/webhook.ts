import { z } from 'zod';
import { ApiMsg } from '../api-messages.js';
import { Id, Paging, PageQuery } from './common.js';

/** What a webhook can be told of. */
export const WEBHOOK_EVENTS = ['response.created', 'response.revised', 'response.reviewed', 'payout.paid'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Webhooks a survey may have. */
export const MAX_WEBHOOKS_PER_SURVEY = 10;

export const CreateWebhookBody = z.object({
  url: z.string({ error: ApiMsg.webhookUrl }).trim().max(2000, ApiMsg.webhookUrl).url(ApiMsg.webhookUrl).refine((u) => /^https?:\/\//i.test(u), ApiMsg.webhookUrl),
  events: z.array(z.enum(WEBHOOK_EVENTS, { error: ApiMsg.webhookEvents }), { error: ApiMsg.webhookEvents }).min(1, ApiMsg.webhookEvents).max(WEBHOOK_EVENTS.length, ApiMsg.webhookEvents),
  /** Signs each delivery; made by the server when left out (shown once, in the reply). */
  secret: z.string({ error: ApiMsg.webhookSecret }).min(16, ApiMsg.webhookSecret).max(200, ApiMsg.webhookSecret).optional(),
  /** Personal answers reach the URL as PERSONAL_MASK. */
  withoutPersonal: z.boolean({ error: 'withoutPersonal must be true or false' }).default(false),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const Webhook = z.object({
  _id: z.string(),
  survey_id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  createdAt: z.string(),
  /** When deliveries began failing with no success since; null while they succeed. */
  failingSince: z.string().nullable(),
  /** Set when it failed for 24 hours: it gets no more events (the owner was mailed). */
  disabledAt: z.string().nullable(),
  /** Its payloads carry personal answers as PERSONAL_MASK. */
  withoutPersonal: z.boolean().optional(),
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookListReply = z.object({ webhooks: z.array(Webhook) });
export type WebhookListReply = z.infer<typeof WebhookListReply>;
/** The secret is in this reply only. */
export const CreateWebhookReply = z.object({ webhook: Webhook, secret: z.string() });
export type CreateWebhookReply = z.infer<typeof CreateWebhookReply>;

export const WebhookParams = z.object({ id: Id });
export const DeliveryParams = z.object({ id: Id, deliveryId: z.string().regex(/^\d{1,18}$/, ApiMsg.deliveryNotFound) });

export const WebhookDelivery = z.object({
  _id: z.string(),
  /** The event's id: the same on every attempt, for the receiver to drop repeats. */
  eventId: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const DeliveryListQuery = PageQuery;
export const DeliveryListReply = z.object({ deliveries: z.array(WebhookDelivery), ...Paging });
export type DeliveryListReply = z.infer<typeof DeliveryListReply>;
export const DeliveryReply = z.object({ delivery: WebhookDelivery });
export type DeliveryReply = z.infer<typeof DeliveryReply>;
