import { randomBytes, randomUUID } from 'node:crypto';
import type { Deps } from '../../plugins/deps.js';
import type { InsightService } from '../insight/service.js';
import { ApiMsg, MAX_WEBHOOKS_PER_SURVEY, type CreateWebhookBody, type CreateWebhookReply, type DeliveryListReply, type Webhook, type WebhookDelivery, type WebhookEvent } from '@survey-bird/contracts';
import { HttpError, badRequest, notFound } from '../../http/errors.js';
import { pageOf, pagingReply } from '../../http/paging.js';
import { refusedAtSave, send, signature, type SendResult } from './outbound.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { WebhooksRepository, type DeliveryRow, type WebhookRow } from './repository.js';
import { iso } from '../../lib/time.js';

/** A survey-limited office user reaches only their surveys' webhooks. */
const inScope = (actor: OfficeActor, surveyId: string) => actor.surveys === 'all' || actor.surveys.includes(surveyId);

/** A failing delivery is retried for this long from when it was queued (or retried by hand). */
export const RETRY_WINDOW_MS = 86_400_000;
/** A webhook failing this long with no success is disabled and its owner mailed. */
export const DISABLE_AFTER_MS = 86_400_000;
/** Waits between attempts: 30 s doubling to at most 1 hour (about 30 attempts in 24 hours). */
export const backoffMs = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
/** How often the worker looks for due deliveries, and how many it sends a round. */
export const WEBHOOK_POLL_MS = 2_000;
const BATCH = 20;
/** A delivery being sent is held this long (another instance skips it); longer than the 10 s send timeout. */
const CLAIM_MS = 60_000;

const eventsOf = (stored: string) => stored.split(',').filter(Boolean) as WebhookEvent[];

function toWebhook(w: WebhookRow): Webhook {
  return { _id: w.id, survey_id: w.survey_id, url: w.url, events: eventsOf(w.events), createdAt: iso(w.created_at), failingSince: iso(w.failing_since), disabledAt: iso(w.disabled_at), withoutPersonal: Number(w.without_personal) === 1 };
}

function toDelivery(d: DeliveryRow): WebhookDelivery {
  return {
    _id: String(d.id), eventId: d.event_id, event: d.event_type as WebhookEvent, status: d.status as WebhookDelivery['status'], attempts: Number(d.attempts),
    lastStatusCode: d.last_status_code === null ? null : Number(d.last_status_code), lastError: d.last_error, lastAttemptAt: iso(d.last_attempt_at),
    nextAttemptAt: d.status === 'pending' ? iso(d.next_attempt_at) : null, deliveredAt: iso(d.delivered_at), createdAt: iso(d.created_at),
  };
}

export class WebhooksService {
  readonly repo: WebhooksRepository;

  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'mailer'>, private readonly insight: InsightService) {
    this.repo = new WebhooksRepository(deps.db.kysely);
  }

  private async survey(surveyId: string, actor: OfficeActor): Promise<void> {
    if (!inScope(actor, surveyId) || !(await this.repo.surveyOf(surveyId, actor.organizationId))) throw notFound(ApiMsg.surveyNotFound);
  }

  private async webhook(id: string, actor: OfficeActor): Promise<WebhookRow> {
    const w = await this.repo.find(id, actor.organizationId);
    if (!w || !inScope(actor, w.survey_id)) throw notFound(ApiMsg.webhookNotFound);
    return w;
  }

  async list(surveyId: string, actor: OfficeActor): Promise<{ webhooks: Webhook[] }> {
    await this.survey(surveyId, actor);
    return { webhooks: (await this.repo.list(surveyId, actor.organizationId)).map(toWebhook) };
  }

  async create(surveyId: string, actor: OfficeActor, userId: string, body: CreateWebhookBody): Promise<CreateWebhookReply> {
    await this.survey(surveyId, actor);
    if (!this.deps.config.webhookAllowPrivate && refusedAtSave(body.url)) throw badRequest(ApiMsg.webhookPrivateUrl);
    if ((await this.repo.list(surveyId, actor.organizationId)).length >= MAX_WEBHOOKS_PER_SURVEY) throw new HttpError(409, ApiMsg.webhookLimit);
    const secret = body.secret ?? `whsec_${randomBytes(24).toString('hex')}`;
    const row: WebhookRow = { id: randomUUID(), organization_id: actor.organizationId, survey_id: surveyId, url: body.url, events: `,${[...new Set(body.events)].join(',')},`, secret, created_by: userId, created_at: Date.now(), failing_since: null, disabled_at: null, without_personal: body.withoutPersonal ? 1 : 0 };
    await this.repo.insert(row);
    return { webhook: toWebhook(row), secret };
  }

  async remove(id: string, actor: OfficeActor): Promise<{ msg: string }> {
    await this.webhook(id, actor);
    await this.repo.delete(id, actor.organizationId);
    return { msg: 'Webhook deleted' };
  }

  async deliveries(id: string, actor: OfficeActor, pageNumber: number): Promise<DeliveryListReply> {
    await this.webhook(id, actor);
    const page = pageOf(pageNumber);
    const [rows, total] = await Promise.all([this.repo.deliveries(id, page.offset, page.limit), this.repo.countDeliveries(id)]);
    return { deliveries: rows.map(toDelivery), ...pagingReply(page, total) };
  }

  async retry(id: string, deliveryId: string, actor: OfficeActor, now = Date.now()): Promise<{ delivery: WebhookDelivery }> {
    await this.webhook(id, actor);
    const d = await this.repo.delivery(id, deliveryId);
    if (!d) throw notFound(ApiMsg.deliveryNotFound);
    await this.repo.retry(d.id, now, RETRY_WINDOW_MS);
    return { delivery: toDelivery((await this.repo.delivery(id, deliveryId))!) };
  }

  /**
   * One round of the worker: sends each due delivery (claimed first, so two instances never send
   * the same one at once), then records the outcome: delivered on a 2xx; otherwise the next attempt
   * after backoffMs, or failed once its 24 hours are over. A webhook failing for DISABLE_AFTER_MS
   * with no success is disabled and its owner mailed. Answers how many were sent.
   */
  async deliverDue(now = Date.now()): Promise<number> {
    const due = await this.repo.due(now, BATCH);
    let sent = 0;
    for (const d of due) {
      if (!(await this.repo.claim(d.id, Number(d.next_attempt_at), now + CLAIM_MS))) continue;
      const body = JSON.stringify({ id: d.event_id, type: d.event_type, createdAt: iso(d.created_at), surveyId: d.survey_id, data: await this.payload(d) });
      const t = Math.floor(Date.now() / 1000);
      const result: SendResult = await send(d.url, body, { 'x-surveybird-signature': signature(d.secret, body, t), 'x-surveybird-event': d.event_type, 'x-surveybird-event-id': d.event_id, 'user-agent': 'SurveyBird-Webhooks/1' }, this.deps.config.webhookAllowPrivate);
      sent++;
      const at = Math.max(now, Date.now());
      const attempts = Number(d.attempts) + 1;
      const ok = result.error === null && result.status !== null && result.status >= 200 && result.status < 300;
      if (ok) {
        await this.repo.recordAttempt(d.id, { status: 'delivered', attempts, last_status_code: result.status, last_error: null, last_attempt_at: at, delivered_at: at });
        await this.repo.succeeded(d.webhook_id);
        continue;
      }
      const expired = at >= Number(d.expires_at);
      await this.repo.recordAttempt(d.id, { status: expired ? 'failed' : 'pending', attempts, next_attempt_at: at + backoffMs(attempts), last_status_code: result.status, last_error: result.error ?? `HTTP ${result.status}`, last_attempt_at: at });
      await this.repo.failingSince(d.webhook_id, at);
      if (d.failing_since !== null && at - Number(d.failing_since) >= DISABLE_AFTER_MS && (await this.repo.disable(d.webhook_id, at))) await this.mailOwner(d.created_by, d.url, d.survey_id);
    }
    return sent;
  }

  private async payload(d: { event_type: string; response_id: string | null; payout_id: string | null; without_personal: number }): Promise<unknown> {
    if (d.payout_id) {
      const p = await this.repo.payout(d.payout_id);
      return p ? { payout: { _id: p.id, survey_id: p.survey_id, reference: p.reference, total: Number(p.total), responseCount: Number(p.response_count), paidAt: iso(p.paid_at) } } : { payout: { _id: d.payout_id } };
    }
    const response = d.response_id ? await this.insight.changedResponse(d.response_id, Number(d.without_personal) === 1) : undefined;
    return { response: response ?? { _id: d.response_id } };
  }

  private async mailOwner(userId: string, url: string, surveyId: string): Promise<void> {
    const owner = await this.repo.ownerEmail(userId);
    if (!owner) return;
    this.deps.mailer.later(() => this.deps.mailer.send({
      to: owner.email,
      subject: 'Survey Bird: a webhook was turned off',
      text: `Deliveries to ${url} failed for 24 hours, so Survey Bird stopped sending events to it. Its delivery log shows the replies it got. Fix the receiver, then add the webhook again.`,
      link: `${this.deps.config.publicUrl}/organization/surveys/${surveyId}/webhooks`,
    }));
  }
}
