import type { FastifyInstance } from 'fastify';

/** The first master admin, from ADMIN_EMAIL and ADMIN_PASSWORD, when none exists yet. */
export async function ensureMasterAdmin(app: FastifyInstance, email: string | undefined, password: string | undefined): Promise<boolean> {
  if (!email || !password) return false;
  const { accounts } = app.services;
  if (await accounts.hasMasterAdmin()) return false;
  await accounts.upsertMasterAdmin(email.trim().toLowerCase(), password);
  app.log.info({ email }, 'master admin created');
  return true;
}
