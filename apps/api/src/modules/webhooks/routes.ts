import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';

/** A survey's webhooks and their delivery log (organization only). */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const { webhooks } = app.services;
  route(app, 'surveyWebhooks', async (req) => webhooks.list(req.params.id, req.auth.actor));
  route(app, 'createWebhook', async (req) => webhooks.create(req.params.id, req.auth.actor, req.auth.user.id, req.body));
  route(app, 'deleteWebhook', async (req) => webhooks.remove(req.params.id, req.auth.actor));
  route(app, 'webhookDeliveries', async (req) => webhooks.deliveries(req.params.id, req.auth.actor, req.query.page));
  route(app, 'retryDelivery', async (req) => webhooks.retry(req.params.id, req.params.deliveryId, req.auth.actor));
}
