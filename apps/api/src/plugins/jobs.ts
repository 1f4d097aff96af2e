import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startPeriodic } from '../jobs/periodic.js';
import { jobTable } from '../jobs/table.js';
import { ExportQueue } from '../modules/insight/export-queue.js';
import { SearchIndexer } from '../modules/insight/search-indexer.js';

export interface Jobs {
  /** The xlsx exports' line (insight routes wait their turn in it). */
  exportQueue: ExportQueue;
  /** SQLite only: moves new responses into the search indexes. */
  searchIndexer: SearchIndexer | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/**
 * Starts every job of jobs/table.ts, after the services and before the routes, and stops them on
 * close, last started first, before the services and the database close.
 */
export default fp(
  async function jobs(app: FastifyInstance) {
    const searchIndexer = app.db.sqlite ? new SearchIndexer(app.db.sqlite) : null;
    app.decorate('jobs', { exportQueue: new ExportQueue(app.config.exports, app.leases), searchIndexer });
    // Every request the server takes tells the flag worker to keep to its small budget (flag-worker.ts).
    app.server.on('request', () => app.services.flags.worker.noteRequest());

    const stops: (() => unknown)[] = [];
    for (const job of jobTable(app, searchIndexer)) {
      if (job.kind === 'periodic') stops.push(startPeriodic(job, app.log).stop);
      else if (job.kind === 'paced') {
        job.start();
        stops.push(job.stop);
      } else {
        if (job.atStart) await job.atStart();
        const background = job.inBackground?.().catch((err: unknown) => app.log.warn({ err }, `${job.name} failed`));
        if (background) stops.push(() => background);
        if (job.atClose) stops.push(job.atClose);
      }
    }
    app.addHook('onClose', async () => {
      for (const stop of stops.reverse()) await stop();
    });
  },
  { name: 'jobs', dependencies: ['services'] },
);
