import type { FastifyInstance, FastifyReply } from 'fastify';
import { route } from '../../http/route.js';

const JSON_TYPE = 'application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8';

/** OData v4 clients check this header on every reply. */
const odata = (reply: FastifyReply) => reply.header('odata-version', '4.0');

/** The OData v4 feed of a survey for Power BI and Excel (an API token as the Basic password, or a session). */
export async function odataRoutes(app: FastifyInstance): Promise<void> {
  const { odata: feed } = app.services;
  route(app, 'odataService', async (req, reply) => odata(reply).type(JSON_TYPE).send(JSON.stringify(await feed.serviceDocument(req.auth.actor, req.params.surveyId))));
  route(app, 'odataMetadata', async (req, reply) => odata(reply).type('application/xml;charset=utf-8').send(await feed.metadata(req.auth.actor, req.params.surveyId)));
  route(app, 'odataEntitySet', async (req, reply) => odata(reply).type(JSON_TYPE).send(JSON.stringify(await feed.page(req.auth.actor, req.params.surveyId, req.params.entitySet, req.query))));
  route(app, 'odataCount', async (req, reply) => odata(reply).type('text/plain;charset=utf-8').send(String(await feed.count(req.auth.actor, req.params.surveyId, req.params.entitySet, req.query))));
}
