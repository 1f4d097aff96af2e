import { Role } from '@survey-bird/contracts';

/** Every screen's path (spec section 2). Links and redirects use these, never literals. */
export const paths = {
  landing: '/',
  login: '/login',
  register: '/register',
  confirmEmail: '/confirm-email/$id',
  resetPassword: '/reset-password',
  manageAccount: '/manage-account',
  welcome: '/welcome-page',
  orgInsight: '/survey-bird/organization/insight',
  orgSurveys: '/survey-bird/organization/manage',
  orgCreateSurvey: '/survey-bird/organization/create',
  /** Edit a published survey: the builder on its latest version; Publish makes the next. */
  orgEditSurvey: '/survey-bird/organization/edit/$surveyId',
  orgFieldUsers: '/survey-bird/organization/field-users',
  orgSupervisors: '/survey-bird/organization/supervisors',
  orgPayouts: '/survey-bird/organization/payouts',
  orgWebhooks: '/survey-bird/organization/webhooks',
  orgTokens: '/survey-bird/organization/tokens',
  /** The owner's Office users screen: invite, change and remove office users. */
  orgOfficeUsers: '/survey-bird/organization/office-users',
  orgAudit: '/survey-bird/organization/audit',
  /** Field users' bank change requests awaiting the office (owner, admin, finance). */
  orgBankChanges: '/survey-bird/organization/bank-changes',
  /** People deactivated across the organization, with Reactivate. */
  orgDeactivated: '/survey-bird/organization/deactivated',
  /** Find a respondent's responses by name or phone: erase them or export everything held about them. */
  orgRespondents: '/survey-bird/organization/respondents',
  orgBackchecks: '/survey-bird/organization/backchecks',
  orgMap: '/survey-bird/organization/map',
  orgTeamMap: '/survey-bird/organization/team-map',
  /** The spec also lists the organization's field-user screen under this path. */
  orgFieldUsersAlias: '/survey-bird/field-user/manage',
  /** Listed under supervisor routes; by analogy with the alias above it is the organization's supervisors screen. */
  orgSupervisorsAlias: '/survey-bird/supervisor/manage',
  supervisorInsight: '/survey-bird/supervisor/insight',
  supervisorFieldUsers: '/survey-bird/supervisor/field-user/manage',
  supervisorPayouts: '/survey-bird/supervisor/payouts',
  supervisorMap: '/survey-bird/supervisor/map',
  supervisorTeamMap: '/survey-bird/supervisor/team-map',
  supervisorBackchecks: '/survey-bird/supervisor/backchecks',
  fieldUser: '/survey-bird/field-user',
  fieldUserResponse: '/survey-bird/field-user/response',
  fieldUserEarnings: '/survey-bird/field-user/earnings',
  fieldUserBank: '/survey-bird/field-user/bank',
  fieldUserMap: '/survey-bird/field-user/map',
  fieldUserBackchecks: '/survey-bird/field-user/backchecks',
  masterAdmin: '/survey-bird/master-admin',
  masterAdminUsers: '/survey-bird/master-admin/users',
  masterAdminFieldUsers: '/survey-bird/master-admin/field-users',
  masterAdminMail: '/survey-bird/master-admin/mail',
} as const;

/** Home route per role; missing or unknown roles (customer_service included) get the organization insight. */
export function homeFor(role: string | null | undefined): string {
  switch (role) {
    case Role.nothing: return paths.welcome;
    case Role.fieldUser: return paths.fieldUser;
    case Role.supervisor: return paths.supervisorInsight;
    case Role.organization: return paths.orgInsight;
    case Role.masterAdmin: return paths.masterAdmin;
    default: return paths.orgInsight;
  }
}

/** Only same-origin paths are followed after login (an open redirect would leak the session). */
export function safeRedirect(target: unknown, fallback: string = paths.landing): string {
  return typeof target === 'string' && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\') ? target : fallback;
}
