import type { Kysely } from 'kysely';
import { Role, uuidv7, type AuditAction } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import type { AuthContext } from '../../plugins/auth.js';

/**
 * The audit log's public face: who acted (`AuditActor`, made once per request by `auditActor`) and
 * `recordAudit`, which writes one event with the database or transaction it is given, so an event
 * commits or rolls back with the change it records.
 */
export interface AuditActor {
  /** null: the system acted (no signed-in caller). */
  userId: string | null;
  email: string;
  name: string;
  role: string;
  /** The office role within the organization; null for every other account. */
  officeRole: string | null;
  ip: string | null;
}

export interface AuditEvent {
  organizationId: string;
  action: AuditAction;
  surveyId?: string | null;
  target?: { type: string; id: string; label?: string | null } | null;
  /** The changed fields as they were; absent for a creation. */
  before?: Record<string, unknown> | null;
  /** The changed fields as they are now; absent for a removal. */
  after?: Record<string, unknown> | null;
}

/** The caller of a request, as the audit log names them. */
export function auditActor(request: { auth: AuthContext | null; ip: string }): AuditActor {
  const user = request.auth?.user;
  if (!user) return { ...SYSTEM, ip: request.ip };
  return { userId: user.id, email: user.email, name: user.full_name ?? user.email, role: user.role, officeRole: officeRoleOf(request.auth), ip: request.ip };
}

export const SYSTEM: AuditActor = { userId: null, email: 'system', name: 'System', role: 'system', officeRole: null, ip: null };

function officeRoleOf(auth: AuthContext | null): string | null {
  return auth?.actor?.role === Role.organization ? auth.actor.officeRole : null;
}

/** Only what differs: before and after with the same keys; null when nothing changed. */
export function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): { before: Partial<T>; after: Partial<T> } | null {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (after[key] === undefined || after[key] === before[key]) continue;
    was[key] = before[key];
    now[key] = after[key];
  }
  return Object.keys(now).length ? { before: was, after: now } : null;
}

export async function recordAudit(db: Kysely<Database>, actor: AuditActor, event: AuditEvent, now = Date.now()): Promise<void> {
  await db.insertInto('audit_events').values(rowOf(actor, event, now)).execute();
}

/** Rows per insert: far below both engines' bound-parameter limits (16 columns each). */
const CHUNK = 200;

/** Several events of one action (a bulk review), inserted in chunks. */
export async function recordAudits(db: Kysely<Database>, actor: AuditActor, events: AuditEvent[], now = Date.now()): Promise<void> {
  for (let i = 0; i < events.length; i += CHUNK) await db.insertInto('audit_events').values(events.slice(i, i + CHUNK).map((e) => rowOf(actor, e, now))).execute();
}

function rowOf(actor: AuditActor, event: AuditEvent, now: number) {
  return {
    id: uuidv7(now),
    organization_id: event.organizationId,
    action: event.action,
    actor_user_id: actor.userId,
    actor_email: actor.email,
    actor_name: actor.name.slice(0, 200),
    actor_role: actor.role,
    actor_office_role: actor.officeRole,
    survey_id: event.surveyId ?? null,
    target_type: event.target?.type ?? null,
    target_id: event.target?.id ?? null,
    target_label: event.target?.label?.slice(0, 320) ?? null,
    before: event.before ? JSON.stringify(event.before) : null,
    after: event.after ? JSON.stringify(event.after) : null,
    ip: actor.ip?.slice(0, 64) ?? null,
    created_at: now,
  };
}
