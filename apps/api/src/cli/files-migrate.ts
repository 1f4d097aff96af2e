import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { STORE_KINDS, FileStores, type StoreKind } from '../modules/files/store/index.js';
import { moveFiles } from '../modules/files/store/move-files.js';

/**
 * `npm run files:migrate -- --to postgres` (or disk, s3): moves every photo into that store, checked
 * by SHA-256 on both sides. Safe to stop and run again; it can run while the API serves.
 */
const { values } = parseArgs({ options: { to: { type: 'string' } } });
if (!values.to || !(STORE_KINDS as readonly string[]).includes(values.to)) {
  console.error(`usage: npm run files:migrate -- --to <${STORE_KINDS.join('|')}>`);
  process.exit(2);
}
const app = await buildApp(loadConfig(process.env, { pwaDir: undefined, seedDemo: false }), { logger: false });
const stores = new FileStores(app.config, app.db);
try {
  const report = await moveFiles(app.db, stores, values.to as StoreKind, (n) => {
    if (n % 500 === 0) console.log(`${n} photos moved`);
  });
  console.log(`${report.moved} photos moved to ${values.to}; ${report.failed.length} left where they were`);
  for (const f of report.failed) console.log(`  ${f.id}: ${f.reason}`);
  process.exitCode = report.failed.length > 0 ? 1 : 0;
} finally {
  stores.close();
  await app.close();
}
