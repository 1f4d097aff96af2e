import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { CounterStore } from '../counters/index.js';
import type { Db } from '../db/database.js';
import type { Mailer } from '../modules/mail/mailer.js';

/**
 * What a service is built with: each takes the members it uses (`Pick<Deps, 'db' | 'mailer'>`) and
 * the other services it calls as constructor arguments, never the Fastify instance, so a service
 * can be built in a test or a CLI from a database alone and its needs read from its signature.
 */
export interface Deps {
  config: Config;
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  counters: CounterStore;
}
