import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** Webhooks and deliveries, always through the caller's organization. */
export class WebhooksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  surveyOf(surveyId: string, organizationId: string) {
    return this.db.selectFrom('surveys').select(['id']).where('id', '=', surveyId).where('organization_id', '=', organizationId).executeTakeFirst();
  }

  list(surveyId: string, organizationId: string): Promise<WebhookRow[]> {
    return this.db.selectFrom('webhooks').selectAll().where('survey_id', '=', surveyId).where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').execute();
  }

  async insert(row: WebhookRow): Promise<void> {
    await this.db.insertInto('webhooks').values(row).execute();
  }

  find(id: string, organizationId: string): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  }

  async delete(id: string, organizationId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('webhooks').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  deliveries(webhookId: string, offset: number, limit: number): Promise<DeliveryRow[]> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id', 'desc').offset(offset).limit(limit).execute();
  }

  async countDeliveries(webhookId: string): Promise<number> {
    const r = await this.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number | string>().as('n')).where('webhook_id', '=', webhookId).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  delivery(webhookId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('id', '=', deliveryId).executeTakeFirst();
  }

  /** Queued again now, with a fresh 24 hours of retries. */
  async retry(deliveryId: string | number, now: number, windowMs: number): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set({ status: 'pending', next_attempt_at: now, expires_at: now + windowMs }).where('id', '=', deliveryId).execute();
  }

  /** Pending deliveries due by `now`, oldest due first, of webhooks still enabled. */
  due(now: number, limit: number) {
    return this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.webhook_id', 'd.event_id', 'd.event_type', 'd.survey_id', 'd.response_id', 'd.payout_id', 'd.attempts', 'd.next_attempt_at', 'd.expires_at', 'd.created_at', 'w.url', 'w.secret', 'w.failing_since', 'w.created_by', 'w.without_personal'])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where('w.disabled_at', 'is', null)
      .orderBy('d.next_attempt_at')
      .limit(limit)
      .execute();
  }

  /** Takes a due delivery for `leaseMs` (another instance's worker then skips it); false when someone took it first. */
  async claim(id: string | number, seenNextAttempt: number, until: number): Promise<boolean> {
    const r = await this.db.updateTable('webhook_deliveries').set({ next_attempt_at: until }).where('id', '=', id).where('status', '=', 'pending').where('next_attempt_at', '=', seenNextAttempt).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async recordAttempt(id: string | number, set: Partial<Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_status_code' | 'last_error' | 'last_attempt_at' | 'delivered_at'>>): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set(set).where('id', '=', id).execute();
  }

  async succeeded(webhookId: string): Promise<void> {
    await this.db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', webhookId).where('failing_since', 'is not', null).execute();
  }

  async failingSince(webhookId: string, now: number): Promise<void> {
    await this.db.updateTable('webhooks').set({ failing_since: now }).where('id', '=', webhookId).where('failing_since', 'is', null).execute();
  }

  /** Disables the webhook once; true for the call that did (it mails the owner). */
  async disable(webhookId: string, now: number): Promise<boolean> {
    const r = await this.db.updateTable('webhooks').set({ disabled_at: now }).where('id', '=', webhookId).where('disabled_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  ownerEmail(userId: string) {
    return this.db.selectFrom('users').select(['email']).where('id', '=', userId).executeTakeFirst();
  }

  payout(id: string) {
    return this.db.selectFrom('payouts').select(['id', 'survey_id', 'reference', 'total', 'response_count', 'paid_at']).where('id', '=', id).executeTakeFirst();
  }
}
