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
