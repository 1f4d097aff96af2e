import type { FieldUser } from '@survey-bird/contracts';

/**
 * The field-user list after an assignment: only the row's supervisor changes. The assign reply is
 * the member's row without the list's extra figures (its phone's last report, its open flags), so
 * putting the reply in place of the row would blank those cells until a refresh.
 */
export function withAssigned(rows: readonly FieldUser[], assigned: FieldUser): FieldUser[] {
  return rows.map((f) => (f._id === assigned._id ? { ...f, supervisorId: assigned.supervisorId, supervisorName: assigned.supervisorName } : f));
}
