import type { FastifyInstance } from 'fastify';
import { passwordProblem } from './password-rule.js';

/** The first master admin, from ADMIN_EMAIL and ADMIN_PASSWORD, when none exists yet. */
export async function ensureMasterAdmin(app: FastifyInstance, email: string | undefined, password: string | undefined): Promise<boolean> {
  if (!email || !password) return false;
  const { accounts } = app.services;
  if (await accounts.hasMasterAdmin()) return false;
  const problem = await passwordProblem(password);
  if (problem) throw new Error(`ADMIN_PASSWORD: ${problem}`);
  await accounts.upsertMasterAdmin(email.trim().toLowerCase(), password);
  app.log.info({ email }, 'master admin created');
  return true;
}
