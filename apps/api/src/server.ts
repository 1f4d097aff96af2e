import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.js';
import { buildApp } from './app.js';
import { runStartupTasks } from './startup.js';

const here = dirname(fileURLToPath(import.meta.url));
const config = loadConfig(process.env, { pwaDir: process.env.PWA_DIR ?? resolve(here, '../../pwa/dist') });
const app = await buildApp(config);

const logins = await runStartupTasks(app);
if (logins) {
  console.log('\nDemo logins (kept in DATA_DIR/demo-logins.json; SEED_DEMO=false turns the demo off):');
  for (const l of logins) console.log(`  ${l.role.padEnd(14)} ${l.email.padEnd(36)} ${l.password}`);
}

// Draining (plugins/lifecycle.ts): stop accepting, let in-flight requests (an upload, a batch, an
// export) finish, then close the database. A request still running after the grace period is cut.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'draining');
    setTimeout(() => {
      app.log.warn({ graceMs: config.shutdownGraceMs }, 'requests still running after the grace period; exiting');
      process.exit(1);
    }, config.shutdownGraceMs).unref();
    void app.close().then(() => process.exit(0));
  });
}
await app.listen({ port: config.port, host: config.host });
console.log(`\nSurvey Bird is serving ${config.publicUrl} (API docs at ${config.publicUrl}/api/docs)\n`);
