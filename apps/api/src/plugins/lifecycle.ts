import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiMsg } from '@survey-bird/contracts';
import { errorBody } from '../http/errors.js';

export type LifecycleState = 'starting' | 'ready' | 'draining';

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: { state: LifecycleState };
  }
}

/**
 * starting -> ready (every plugin loaded) -> draining (close() begun: SIGTERM). While draining,
 * requests already past this hook finish; a request that arrives on a kept-alive connection gets a
 * 503 in the API's `{ msg }` shape with Retry-After, which the phone's outbox retries (through the
 * load balancer, on another instance). /healthz still answers: the process is alive.
 */
export default fp(
  async function lifecycle(app: FastifyInstance) {
    app.decorate('lifecycle', { state: 'starting' as LifecycleState });
    app.addHook('onReady', async () => {
      app.lifecycle.state = 'ready';
    });
    app.addHook('preClose', async () => {
      app.lifecycle.state = 'draining';
    });
    // A connection busy when draining began would otherwise stay open after its reply (keep-alive,
    // 72 s by default) and hold the close up: each reply while draining closes its connection.
    app.addHook('onSend', async (_request, reply) => {
      if (app.lifecycle.state === 'draining') reply.header('connection', 'close');
    });
    app.addHook('onRequest', async (request, reply) => {
      if (app.lifecycle.state !== 'draining' || request.url === '/healthz') return;
      return reply.code(503).header('connection', 'close').header('retry-after', '1').send(errorBody(ApiMsg.notReadyDraining, 503));
    });
  },
  { name: 'lifecycle' },
);
