import type { Kysely } from 'kysely';
import { Role } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';

/** Ids per `in (...)`: far below both engines' bound-parameter limits. */
const CHUNK = 500;

/** The reads a team copy makes: the source survey's active team, and who of it the target already knows. */
export class TeamCopyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Active supervisors then field users of a survey, oldest invitation first; `limit` bounds the read. */
  activeTeam(surveyId: string, limit: number) {
    return this.db.selectFrom('members').select(['id', 'role', 'email', 'full_name', 'phone_number', 'bank', 'account_number', 'account_name', 'rate', 'supervisor_id'])
      .where('survey_id', '=', surveyId).where('withdrawn_at', 'is', null).where('role', 'in', [Role.supervisor, Role.fieldUser])
      .orderBy('role', 'desc').orderBy('created_at').orderBy('id').limit(limit).execute();
  }

  /** The target survey's rows (active or withdrawn) of these e-mails, and their accounts' roles. */
  async known(surveyId: string, emails: string[]) {
    const members = new Map<string, { id: string; role: string; withdrawn_at: number | null }>();
    const accounts = new Map<string, string>();
    for (let i = 0; i < emails.length; i += CHUNK) {
      const part = emails.slice(i, i + CHUNK);
      for (const m of await this.db.selectFrom('members').select(['id', 'email', 'role', 'withdrawn_at']).where('survey_id', '=', surveyId).where('email', 'in', part).execute()) members.set(m.email, m);
      for (const u of await this.db.selectFrom('users').select(['email', 'role']).where('email', 'in', part).execute()) accounts.set(u.email, u.role);
    }
    return { members, accounts };
  }

  /** The target survey's active supervisors by e-mail. */
  async supervisorIds(surveyId: string): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('members').select(['id', 'email']).where('survey_id', '=', surveyId).where('role', '=', Role.supervisor).where('withdrawn_at', 'is', null).execute();
    return new Map(rows.map((r) => [r.email, r.id]));
  }
}
