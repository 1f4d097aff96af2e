import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { startWalCheckpointer } from '../db/wal-checkpointer.js';
import { openCounterStore, openLeaseStore, type CounterStore, type LeaseStore } from '../counters/index.js';
import { passwordPool } from '../modules/accounts/password-pool.js';
import { Mailer } from '../modules/mail/mailer.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    mailer: Mailer;
    /** Counters shared by every API process (database or Redis). */
    counters: CounterStore;
    /** Leases shared by every API process (database or Redis): the export queue's cross-instance limits. */
    leases: LeaseStore;
  }
}

/** Shared services every module uses: configuration, database, mail, the shared counters. */
export default fp(
  async function context(app: FastifyInstance, opts: { config: Config; db: Db }) {
    app.decorate('config', opts.config);
    passwordPool.configure(opts.config.passwordPool);
    app.decorate('db', opts.db);
    app.decorate('mailer', new Mailer(opts.db.kysely, app.log, opts.config.smtpUrl));
    app.decorate('counters', openCounterStore(opts.db, opts.config.redisUrl, `${opts.config.redisPrefix}counter:`));
    app.decorate('leases', openLeaseStore(opts.db, opts.config.redisUrl, `${opts.config.redisPrefix}lease:`));
    const checkpointer = opts.db.sqlite && startWalCheckpointer(opts.db.sqlite, {
      onError: (message) => app.log.warn({ err: message }, 'WAL checkpoint failed'),
      onRecovered: () => app.log.info('WAL checkpoint succeeded again; the WAL file was emptied'),
    });
    app.addHook('onClose', async () => {
      await app.mailer.idle();
      app.mailer.close();
      await app.counters.close();
      await app.leases.close();
      await checkpointer?.stop();
      await opts.db.close();
    });
  },
  { name: 'context' },
);
