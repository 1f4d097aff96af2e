import { Role } from '@survey-bird/contracts';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Link, Outlet, redirect } from '@tanstack/react-router';
import { activeAccountHome } from '../features/accounts/home';
import { Toaster } from '../ui/Toast';
import { LazyConfirmDialog, LazyUpdatePrompt } from '../ui/LazyOverlays';
import { AppShell } from './AppShell';
import { paths } from './paths';

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
  notFoundComponent: () => (
    <main className="not-found">
      <h1>Page not found</h1>
      <p>The page you opened does not exist.</p>
      <Link to={paths.landing} className="btn btn--primary">Go Home</Link>
    </main>
  ),
});

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
  component: lazyRouteComponent(() => import('../features/accounts/LoginPage'), 'LoginPage'),
});
const register = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.register,
  validateSearch: (s: Record<string, unknown>): { email?: string; invite?: string } => ({ email: text(s.email), invite: text(s.invite) }),
  component: lazyRouteComponent(() => import('../features/accounts/RegisterPage'), 'RegisterPage'),
});
const confirmEmail = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.confirmEmail,
  component: lazyRouteComponent(() => import('../features/accounts/ConfirmEmailPage'), 'ConfirmEmailPage'),
});
const resetPassword = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.resetPassword,
  validateSearch: (s: Record<string, unknown>): { token?: string; resetToken?: string; email?: string } => ({
    token: text(s.token),
    resetToken: text(s.resetToken),
    email: text(s.email),
  }),
  component: lazyRouteComponent(() => import('../features/accounts/ResetPasswordPage'), 'ResetPasswordPage'),
});
const manageAccount = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.manageAccount,
  component: lazyRouteComponent(() => import('../features/accounts/ManageAccountPage'), 'ManageAccountPage'),
});
const welcome = createRoute({
  getParentRoute: () => rootRoute,
  path: paths.welcome,
  component: lazyRouteComponent(() => import('../features/accounts/WelcomePage'), 'WelcomePage'),
});

const organization = createRoute({ getParentRoute: () => rootRoute, id: 'organization', component: () => <AppShell role={Role.organization} /> });
const orgFieldUsers = lazyRouteComponent(() => import('../features/organization/FieldUsersPage'), 'FieldUsersPage');
const orgSupervisors = lazyRouteComponent(() => import('../features/organization/SupervisorsPage'), 'SupervisorsPage');
const organizationRoutes = [
  createRoute({ getParentRoute: () => organization, path: paths.orgInsight, component: lazyRouteComponent(() => import('../features/organization/InsightPage'), 'InsightPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgSurveys, component: lazyRouteComponent(() => import('../features/organization/ManageSurveysPage'), 'ManageSurveysPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgCreateSurvey, component: lazyRouteComponent(() => import('../features/organization/CreateSurveyPage'), 'CreateSurveyPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgEditSurvey, component: lazyRouteComponent(() => import('../features/organization/EditSurveyPage'), 'EditSurveyPage') }),
  createRoute({ getParentRoute: () => organization, path: paths.orgFieldUsers, component: orgFieldUsers }),
  createRoute({ getParentRoute: () => organization, path: paths.orgFieldUsersAlias, component: orgFieldUsers }),
  createRoute({ getParentRoute: () => organization, path: paths.orgSupervisors, component: orgSupervisors }),
  createRoute({ getParentRoute: () => organization, path: paths.orgSupervisorsAlias, component: orgSupervisors }),
  createRoute({ getParentRoute: () => organization, path: paths.orgPayouts, component: lazyRouteComponent(() => import('../features/payouts/PayoutsPage'), 'PayoutsPage') }),
] as const;

const supervisor = createRoute({ getParentRoute: () => rootRoute, id: 'supervisor', component: () => <AppShell role={Role.supervisor} /> });
const supervisorRoutes = [
  createRoute({ getParentRoute: () => supervisor, path: paths.supervisorInsight, component: lazyRouteComponent(() => import('../features/supervisor/InsightPage'), 'InsightPage') }),
  createRoute({ getParentRoute: () => supervisor, path: paths.supervisorFieldUsers, component: lazyRouteComponent(() => import('../features/supervisor/FieldUsersPage'), 'FieldUsersPage') }),
  createRoute({ getParentRoute: () => supervisor, path: paths.supervisorPayouts, component: lazyRouteComponent(() => import('../features/payouts/PayoutsPage'), 'SupervisorPayoutsPage') }),
] as const;

const fieldUser = createRoute({ getParentRoute: () => rootRoute, id: 'field-user', component: () => <AppShell role={Role.fieldUser} /> });
const fieldUserRoutes = [
  createRoute({ getParentRoute: () => fieldUser, path: paths.fieldUser, component: lazyRouteComponent(() => import('../features/field-user/QuestionsPage'), 'QuestionsPage') }),
  createRoute({ getParentRoute: () => fieldUser, path: paths.fieldUserResponse, component: lazyRouteComponent(() => import('../features/field-user/ResponsesPage'), 'ResponsesPage') }),
  createRoute({ getParentRoute: () => fieldUser, path: paths.fieldUserEarnings, component: lazyRouteComponent(() => import('../features/field-user/EarningsPage'), 'EarningsPage') }),
] as const;

const masterAdmin = createRoute({ getParentRoute: () => rootRoute, id: 'master-admin', component: () => <AppShell role={Role.masterAdmin} /> });
const masterAdminRoutes = [
  createRoute({ getParentRoute: () => masterAdmin, path: paths.masterAdmin, component: lazyRouteComponent(() => import('../features/master-admin/OrganizationsPage'), 'OrganizationsPage') }),
  createRoute({ getParentRoute: () => masterAdmin, path: paths.masterAdminUsers, component: lazyRouteComponent(() => import('../features/master-admin/UsersPage'), 'UsersPage') }),
  createRoute({ getParentRoute: () => masterAdmin, path: paths.masterAdminFieldUsers, component: lazyRouteComponent(() => import('../features/master-admin/FieldUsersPage'), 'FieldUsersPage') }),
  createRoute({ getParentRoute: () => masterAdmin, path: paths.masterAdminMail, component: lazyRouteComponent(() => import('../features/master-admin/SendMailPage'), 'SendMailPage') }),
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
