import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { OfficeActor } from '../plugins/auth.js';

/**
 * The rows of the office user's organization and, when the membership is limited to some surveys,
 * of those surveys only: `organizationColumn = actor's` and `surveyColumn in (...)`. Every query an
 * office user's request makes on survey data is scoped by this one condition.
 */
export function inOffice(actor: OfficeActor, organizationColumn: string, surveyColumn: string): RawBuilder<SqlBool> {
  const own = sql<SqlBool>`${sql.ref(organizationColumn)} = ${actor.organizationId}`;
  if (actor.surveys === 'all') return own;
  if (actor.surveys.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${own} and ${sql.ref(surveyColumn)} in (${sql.join(actor.surveys)}))`;
}
