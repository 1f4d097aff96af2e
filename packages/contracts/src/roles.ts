export const Role = {
  nothing: 'nothing',
  fieldUser: 'field_user',
  supervisor: 'supervisor',
  organization: 'organization',
  masterAdmin: 'master_admin',
  customerService: 'customer_service',
} as const;
export type Role = (typeof Role)[keyof typeof Role];
export const ROLES = Object.values(Role) as [Role, ...Role[]];

/**
 * An organization account's role in its office (the membership's role; the account's role stays
 * `organization`): owner (everything), admin (everything but office users), analyst (reads),
 * finance (payouts and reads), reviewer (review, flags and reads).
 */
export const OfficeRole = {
  owner: 'owner',
  admin: 'admin',
  analyst: 'analyst',
  finance: 'finance',
  reviewer: 'reviewer',
} as const;
export type OfficeRole = (typeof OfficeRole)[keyof typeof OfficeRole];
export const OFFICE_ROLES = Object.values(OfficeRole) as [OfficeRole, ...OfficeRole[]];
