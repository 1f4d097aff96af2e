import { Role } from '@survey-bird/contracts';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Link, Outlet, redirect } from '@tanstack/react-router';
import { activeAccountHome } from '../features/accounts/home';
import { Toaster } from '../ui/Toast';
import { LazyConfirmDialog, LazyUpdatePrompt } from '../ui/LazyOverlays';
import { AppShell } from './AppShell';
import { paths } from '../lib/paths';
import { loadPart, useT, type CatalogPart } from '../lib/i18n';

/**
 * The route tree (spec section 2). Public account screens hang off the root; each role's screens
 * sit under a pathless layout (`AppShell`) that loads the user and checks the role. Screens are
 * lazy so a route only downloads its own code (chart.js stays on the dashboards).
 */
const rootRoute = createRootRoute({
  component: () => (
    <>
      <Outlet />
      <Toaster />
      <LazyConfirmDialog />
      <LazyUpdatePrompt />
    </>
  ),
  notFoundComponent: () => <NotFound />,
});

function NotFound() {
  const t = useT();
  return (
    <main className="not-found">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <Link to={paths.landing} className="btn btn--primary">{t('nav.goHome')}</Link>
    </main>
  );
}

/** A screen's module and its words (parts of the language's catalog, lib/i18n.ts), fetched side by side. */
const withWords = <M,>(module: Promise<M>, ...parts: CatalogPart[]): Promise<M> => Promise.all([module, ...parts.map(loadPart)]).then(([m]) => m);

const text = (v: unknown): string | undefined => (v === undefined || v === null || v === '' ? undefined : typeof v === 'string' ? v : JSON.stringify(v));

const landing = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.landing,
  validateSearch: (s: Record<string, unknown>): { showMicroservices?: boolean; launch?: 'app' } => ({
    ...(s.showMicroservices === true || s.showMicroservices === 'true' ? { showMicroservices: true } : {}),
    ...(s.launch === 'app' ? { launch: 'app' as const } : {}),
  }),
  // The installed app starts at /?launch=app (vite.config.ts): the stored account's home, offline too.
  beforeLoad: async ({ search }) => {
    if (search.launch !== 'app') return;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- TanStack Router's redirect is thrown by design
    throw redirect({ href: (await activeAccountHome()) ?? paths.landing, replace: true });
  },
  component: lazyRouteComponent(() => import('../features/landing/LandingPage'), 'LandingPage'),
});
const login = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.login,
  validateSearch: (s: Record<string, unknown>): { email?: string; redirect?: string } => ({ email: text(s.email), redirect: text(s.redirect) }),
  component: lazyRouteComponent(() => withWords(import('../features/accounts/LoginPage'), 'auth'), 'LoginPage'),
});
const register = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.register,
  validateSearch: (s: Record<string, unknown>): { email?: string; invite?: string } => ({ email: text(s.email), invite: text(s.invite) }),
  component: lazyRouteComponent(() => withWords(import('../features/accounts/RegisterPage'), 'auth'), 'RegisterPage'),
});
const confirmEmail = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.confirmEmail,
  component: lazyRouteComponent(() => withWords(import('../features/accounts/ConfirmEmailPage'), 'auth'), 'ConfirmEmailPage'),
});
const resetPassword = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.resetPassword,
  validateSearch: (s: Record<string, unknown>): { token?: string; resetToken?: string; email?: string } => ({
    token: text(s.token),
    resetToken: text(s.resetToken),
    email: text(s.email),
  }),
  component: lazyRouteComponent(() => withWords(import('../features/accounts/ResetPasswordPage'), 'auth'), 'ResetPasswordPage'),
});
const manageAccount = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.manageAccount,
  component: lazyRouteComponent(() => withWords(import('../features/accounts/ManageAccountPage'), 'auth'), 'ManageAccountPage'),
});
const welcome = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.welcome,
  component: lazyRouteComponent(() => import('../features/accounts/WelcomePage'), 'WelcomePage'),
});

const organization = createRoute({ getParentRoute: () => rootRoute, id: 'organization', component: () => <AppShell role={Role.organization} /> });
const orgFieldUsers = lazyRouteComponent(() => withWords(import('../features/team/OrganizationFieldUsersPage'), 'office'), 'OrganizationFieldUsersPage');
const orgSupervisors = lazyRouteComponent(() => withWords(import('../features/team/SupervisorsPage'), 'office'), 'SupervisorsPage');
const organizationRoutes = [
  createRoute({ getParentRoute: () => organization, path: paths.orgInsight, component: lazyRouteComponent(() => withWords(import('../features/insight/OrganizationInsightPage'), 'office'), 'OrganizationInsightPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgSurveys, component: lazyRouteComponent(() => withWords(import('../features/surveys/ManageSurveysPage'), 'office'), 'ManageSurveysPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgCreateSurvey, component: lazyRouteComponent(() => withWords(import('../features/surveys/CreateSurveyPage'), 'office'), 'CreateSurveyPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgEditSurvey, component: lazyRouteComponent(() => withWords(import('../features/surveys/EditSurveyPage'), 'office'), 'EditSurveyPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgFieldUsers, component: orgFieldUsers }),
  createRoute({ getParentRoute: () => organization, path: paths.orgFieldUsersAlias, component: orgFieldUsers }),
  createRoute({ getParentRoute: () => organization, path: paths.orgSupervisors, component: orgSupervisors }),
  createRoute({ getParentRoute: () => organization, path: paths.orgSupervisorsAlias, component: orgSupervisors }),
  createRoute({ getParentRoute: () => organization, path: paths.orgOfficeUsers, component: lazyRouteComponent(() => withWords(import('../features/team/OfficeUsersPage'), 'office'), 'OfficeUsersPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgPayouts, component: lazyRouteComponent(() => withWords(import('../features/payouts/PayoutsPage'), 'office'), 'PayoutsPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgWebhooks, component: lazyRouteComponent(() => withWords(import('../features/webhooks/WebhooksPage'), 'office'), 'WebhooksPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgTokens, component: lazyRouteComponent(() => withWords(import('../features/tokens/TokensPage'), 'office'), 'TokensPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgRespondents, component: lazyRouteComponent(() => withWords(import('../features/privacy/RespondentsPage'), 'office'), 'RespondentsPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgBackchecks, component: lazyRouteComponent(() => withWords(import('../features/backchecks/BackchecksPage'), 'office'), 'BackchecksPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgAudit, component: lazyRouteComponent(() => withWords(import('../features/audit/AuditPage'), 'office'), 'AuditPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgBankChanges, component: lazyRouteComponent(() => withWords(import('../features/team/BankChangesPage'), 'office'), 'BankChangesPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgDeactivated, component: lazyRouteComponent(() => withWords(import('../features/team/DeactivatedPeoplePage'), 'office'), 'DeactivatedPeoplePage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgMap, component: lazyRouteComponent(() => withWords(import('../features/maps/ResponsesMapPage'), 'map', 'office'), 'OrganizationResponsesMapPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgTeamMap, component: lazyRouteComponent(() => withWords(import('../features/maps/TeamMapPage'), 'map', 'office'), 'OrganizationTeamMapPage') }),
] as const;

const supervisor = createRoute({ getParentRoute: () => rootRoute, id: 'supervisor', component: () => <AppShell role={Role.supervisor} /> });
const supervisorRoutes = [
  createRoute({ getParentRoute: () => supervisor, path: paths.supervisorInsight, component: lazyRouteComponent(() => withWords(import('../features/insight/SupervisorInsightPage'), 'office'), 'SupervisorInsightPage') }),
  createRoute({ getParentRoute: () => supervisor, path: paths.supervisorFieldUsers, component: lazyRouteComponent(() => withWords(import('../features/team/SupervisorFieldUsersPage'), 'office'), 'SupervisorFieldUsersPage') }),
  createRoute({ getParentRoute: () => supervisor, path: paths.supervisorPayouts, component: lazyRouteComponent(() => withWords(import('../features/payouts/PayoutsPage'), 'office'), 'SupervisorPayoutsPage') }),
  createRoute({ getParentRoute: () => supervisor, path: paths.supervisorMap, component: lazyRouteComponent(() => withWords(import('../features/maps/ResponsesMapPage'), 'map', 'office'), 'SupervisorResponsesMapPage') }),
  createRoute({ getParentRoute: () => supervisor, path: paths.supervisorBackchecks, component: lazyRouteComponent(() => withWords(import('../features/backchecks/MyBackchecksPage'), 'backchecks', 'office'), 'MyBackchecksPage') }),
  createRoute({ getParentRoute: () => supervisor, path: paths.supervisorTeamMap, component: lazyRouteComponent(() => withWords(import('../features/maps/TeamMapPage'), 'map', 'office'), 'SupervisorTeamMapPage') }),
] as const;

const fieldUser = createRoute({ getParentRoute: () => rootRoute, id: 'field-user', component: () => <AppShell role={Role.fieldUser} /> });
const fieldUserRoutes = [
  createRoute({ getParentRoute: () => fieldUser, path: paths.fieldUser, component: lazyRouteComponent(() => withWords(import('../features/capture/QuestionsPage'), 'form'), 'QuestionsPage') }),
  createRoute({ getParentRoute: () => fieldUser, path: paths.fieldUserResponse, component: lazyRouteComponent(() => withWords(import('../features/responses/ResponsesPage'), 'responses'), 'ResponsesPage') }),
  createRoute({ getParentRoute: () => fieldUser, path: paths.fieldUserEarnings, component: lazyRouteComponent(() => withWords(import('../features/earnings/EarningsPage'), 'earnings'), 'EarningsPage') }),
  createRoute({ getParentRoute: () => fieldUser, path: paths.fieldUserBank, component: lazyRouteComponent(() => withWords(import('../features/earnings/BankDetailsPage'), 'bank'), 'BankDetailsPage') }),
  createRoute({ getParentRoute: () => fieldUser, path: paths.fieldUserBackchecks, component: lazyRouteComponent(() => withWords(import('../features/backchecks/MyBackchecksPage'), 'backchecks'), 'MyBackchecksPage') }),
  createRoute({ getParentRoute: () => fieldUser, path: paths.fieldUserMap, component: lazyRouteComponent(() => withWords(import('../features/maps/MyMapPage'), 'map'), 'MyMapPage') }),
] as const;

const masterAdmin = createRoute({ getParentRoute: () => rootRoute, id: 'master-admin', component: () => <AppShell role={Role.masterAdmin} /> });
const masterAdminRoutes = [
  createRoute({ getParentRoute: () => masterAdmin, path: paths.masterAdmin, component: lazyRouteComponent(() => withWords(import('../features/organizations/OrganizationsPage'), 'office'), 'OrganizationsPage') }),
  createRoute({ getParentRoute: () => masterAdmin, path: paths.masterAdminUsers, component: lazyRouteComponent(() => withWords(import('../features/team/UsersPage'), 'office'), 'UsersPage') }),
  createRoute({ getParentRoute: () => masterAdmin, path: paths.masterAdminFieldUsers, component: lazyRouteComponent(() => withWords(import('../features/team/MasterAdminFieldUsersPage'), 'office'), 'MasterAdminFieldUsersPage') }),
  createRoute({ getParentRoute: () => masterAdmin, path: paths.masterAdminMail, component: lazyRouteComponent(() => withWords(import('../features/mail/SendMailPage'), 'office'), 'SendMailPage') }),
] as const;

export const routeTree = rootRoute.addChildren([
  landing,
  login,
  register,
  confirmEmail,
  resetPassword,
  manageAccount,
  welcome,
  organization.addChildren(organizationRoutes),
  supervisor.addChildren(supervisorRoutes),
  fieldUser.addChildren(fieldUserRoutes),
  masterAdmin.addChildren(masterAdminRoutes),
]);

export function createAppRouter() {
  return createRouter({ routeTree, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
