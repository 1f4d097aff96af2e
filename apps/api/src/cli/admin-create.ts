import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { passwordProblem } from '../modules/accounts/password-rule.js';
import { AccountsService } from '../modules/accounts/service.js';

/** `npm run admin:create -- --email you@example.com --password '...'`: creates or resets a master admin. */
const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } });
if (!values.email || !values.password) {
  console.error('usage: npm run admin:create -- --email <email> --password <password>');
  process.exit(2);
}
const problem = await passwordProblem(values.password);
if (problem) {
  console.error(problem);
  process.exit(2);
}
const app = await buildApp(loadConfig(process.env, { pwaDir: undefined }), { logger: false });
await new AccountsService(app, (claims) => app.signToken(claims)).upsertMasterAdmin(values.email.trim().toLowerCase(), values.password);
await app.close();
console.log(`master admin ${values.email} is ready to sign in`);
