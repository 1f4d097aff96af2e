import type { FastifyInstance } from 'fastify';
import { ApiMsg } from '@survey-bird/contracts';
import { migrationNames } from '../../db/database.js';
import { HttpError } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { HealthRepository } from './repository.js';

/** A load balancer polls every few seconds: a database that hangs must turn into a 503, not a hung probe. */
const DB_TIMEOUT_MS = 2_000;

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const repo = new HealthRepository(app.db.kysely);
  const expected = migrationNames();

  route(app, 'healthz', async () => ({ status: 'ok' as const }));

  route(app, 'readyz', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    if (app.lifecycle.state === 'starting') throw new HttpError(503, ApiMsg.notReadyStarting);
    if (app.lifecycle.state === 'draining') throw new HttpError(503, ApiMsg.notReadyDraining);
    let timer: NodeJS.Timeout | undefined;
    // The backlog is counted only once every migration has run (its table is one of theirs).
    const probe = async () => {
      const applied = await repo.appliedCount(expected);
      return { applied, flagBacklog: applied === expected.length ? await app.services.flags.worker.backlog() : 0 };
    };
    const { applied, flagBacklog } = await Promise.race([
      probe(),
      new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('timeout')), DB_TIMEOUT_MS); }),
    ]).catch(() => {
      throw new HttpError(503, ApiMsg.notReadyDatabase);
    }).finally(() => clearTimeout(timer));
    if (applied !== expected.length) throw new HttpError(503, ApiMsg.notReadyMigrations);
    return { status: 'ready' as const, engine: app.db.engine, flagBacklog };
  });
}
