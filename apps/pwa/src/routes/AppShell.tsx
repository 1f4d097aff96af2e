import { Role } from '@survey-bird/contracts';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useSession } from '../features/accounts/session';
import { Header } from '../shell/Header';
import { Redirect } from '../ui/Redirect';
import { SidePane, type ShellRole } from '../shell/SidePane';
import { PageLoading } from '../ui/Spinner';
import { loginHref } from '../lib/navigate';
import { homeFor } from '../lib/paths';
import { loadPart, useT } from '../lib/i18n';

// The settings' words are a part of the catalog of their own (lib/i18n.ts).
const FieldUserSettings = lazy(() => Promise.all([import('../features/settings/FieldUserSettingsPanel'), loadPart('settings')]).then(([m]) => m));
const SupervisorSettings = lazy(() => import('../features/settings/SupervisorSettingsPanel'));

/**
 * Layout and guard of the role screens: the user is loaded when unknown, and the screen renders
 * only when the user's role is the route's role; otherwise the user is sent to their own home.
 */
export function AppShell({ role }: { role: ShellRole }) {
  const t = useT();
  const s = useSession();
  const location = useRouterState({ select: (st) => st.location });
  const [settingsOpen, setSettingsOpen] = useState(false);

  if (!s.hasAccount) return <Redirect to={loginHref(undefined, location.href)} />;
  if (s.status === 'failed') return <Header />;
  if (!s.user) {
    return (
      <div className="shell">
        <Header />
        <PageLoading />
      </div>
    );
  }
  if (s.user.role !== role) {
    const home = homeFor(s.user.role);
    return home === location.pathname ? <Header /> : <Redirect to={home} />;
  }
  const SettingsPanel = role === Role.supervisor ? SupervisorSettings : FieldUserSettings;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">{t('shell.skip')}</a>
      <Header />
      <div className="shell__body">
        <SidePane role={role} officeRole={s.user.officeRole} settingsOpen={settingsOpen} onOpenSettings={() => setSettingsOpen(true)} />
        <main id="main" className="shell__main">
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      {settingsOpen && (
        <Suspense fallback={null}>
          <SettingsPanel user={s.user} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
