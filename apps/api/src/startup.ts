import type { FastifyInstance } from 'fastify';
import { withStartupLock } from './db/startup-lock.js';
import { ensureMasterAdmin } from './modules/accounts/admin.js';
import { seedDemoIfEmpty, type DemoLogin } from './seed/demo.js';

/**
 * What a starting server does once the app is built: the first master admin, the demo on an empty
 * database. Under the start-up lock, so instances started together do it once between them.
 */
export function runStartupTasks(app: FastifyInstance): Promise<DemoLogin[] | null> {
  return withStartupLock(app.db, async () => {
    await ensureMasterAdmin(app, app.config.adminEmail, app.config.adminPassword);
    return app.config.seedDemo ? seedDemoIfEmpty(app) : null;
  });
}
