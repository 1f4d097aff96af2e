import type { Kysely } from 'kysely';
import { Role } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';

/** The reads and writes an invitation makes on accounts (invitations.ts), inside the inviting transaction. */
export class InvitationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  accountOf(email: string) {
    return this.db.selectFrom('users').select(['id', 'role', 'verified']).where('email', '=', email).executeTakeFirst();
  }

  async deleteUnverified(userId: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', userId).where('verified', '=', 0).execute();
  }

  /** Gives a role-less account the invited role; false when its role changed meanwhile. */
  async upgradeRole(userId: string, role: string): Promise<boolean> {
    const upgraded = await this.db.updateTable('users').set({ role }).where('id', '=', userId).where('role', '=', Role.nothing).executeTakeFirst();
    return Number(upgraded.numUpdatedRows) === 1;
  }

  /** A live invitation of this e-mail for another role in the organization. */
  async hasOtherRoleInvitation(email: string, organizationId: string, role: string): Promise<boolean> {
    const row = await this.db.selectFrom('members').select('id').where('email', '=', email).where('organization_id', '=', organizationId).where('role', '!=', role).where('withdrawn_at', 'is', null).executeTakeFirst();
    return row !== undefined;
  }
}
