import { Role } from '@survey-bird/contracts';
import { Link, useRouterState } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import { paths } from '../routes/paths';
import {
  FieldUsersIcon, InsightIcon, MailIcon, OrganizationIcon, QuestionsIcon, SettingsIcon, SupervisorsIcon, SurveysIcon, UsersIcon, WalletIcon,
} from './icons';

type Item = {
  label: string;
  /** Label in the phone's bottom bar. */
  short: string;
  Icon: ComponentType<{ size?: number }>;
} & ({ to: string; also?: readonly string[] } | { action: 'settings' });

export type ShellRole = typeof Role.organization | typeof Role.supervisor | typeof Role.fieldUser | typeof Role.masterAdmin;

/** Side pane links by role (spec section 2). */
export const NAV: Record<ShellRole, Item[]> = {
  [Role.organization]: [
    { label: 'Insight', short: 'Insight', Icon: InsightIcon, to: paths.orgInsight },
    { label: 'Surveys', short: 'Surveys', Icon: SurveysIcon, to: paths.orgSurveys, also: [paths.orgCreateSurvey] },
    { label: 'Manage Supervisors', short: 'Supervisors', Icon: SupervisorsIcon, to: paths.orgSupervisors, also: [paths.orgSupervisorsAlias] },
    { label: 'Manage Field Users', short: 'Field users', Icon: FieldUsersIcon, to: paths.orgFieldUsers, also: [paths.orgFieldUsersAlias] },
    { label: 'Payouts', short: 'Payouts', Icon: WalletIcon, to: paths.orgPayouts },
  ],
  [Role.fieldUser]: [
    { label: 'Questions', short: 'Questions', Icon: QuestionsIcon, to: paths.fieldUser, also: [paths.fieldUserResponse] },
    { label: 'Earnings', short: 'Earnings', Icon: WalletIcon, to: paths.fieldUserEarnings },
    { label: 'Field user settings', short: 'Settings', Icon: SettingsIcon, action: 'settings' },
  ],
  [Role.supervisor]: [
    { label: 'Insight', short: 'Insight', Icon: InsightIcon, to: paths.supervisorInsight },
    { label: 'Manage Field Users', short: 'Field users', Icon: FieldUsersIcon, to: paths.supervisorFieldUsers },
    { label: 'Payouts', short: 'Payouts', Icon: WalletIcon, to: paths.supervisorPayouts },
    { label: 'Settings', short: 'Settings', Icon: SettingsIcon, action: 'settings' },
  ],
  [Role.masterAdmin]: [
    { label: 'Organization', short: 'Orgs', Icon: OrganizationIcon, to: paths.masterAdmin },
    { label: 'All users', short: 'Users', Icon: UsersIcon, to: paths.masterAdminUsers },
    { label: 'All Field Users', short: 'Field users', Icon: FieldUsersIcon, to: paths.masterAdminFieldUsers },
    { label: 'Send mail', short: 'Mail', Icon: MailIcon, to: paths.masterAdminMail },
  ],
};

/** A vertical pane on wide screens; on phones the same links become a bottom tab bar (CSS). */
export function SidePane({ role, onOpenSettings, settingsOpen }: { role: ShellRole; onOpenSettings: () => void; settingsOpen: boolean }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname.replace(/\/$/, '') || '/' });
  return (
    <nav className="sidepane" aria-label="Main">
      <ul className="sidepane__list">
        {NAV[role].map((item) => {
          const content = (
            <>
              <item.Icon size={22} />
              <span className="sidepane__label">{item.label}</span>
              <span className="sidepane__short">{item.short}</span>
            </>
          );
          if ('action' in item) {
            return (
              <li key={item.label}>
                <button type="button" className={`sidepane__link${settingsOpen ? ' is-active' : ''}`} aria-expanded={settingsOpen} onClick={onOpenSettings}>
                  {content}
                </button>
              </li>
            );
          }
          const active = pathname === item.to || (item.also ?? []).includes(pathname);
          return (
            <li key={item.label}>
              <Link to={item.to} className={`sidepane__link${active ? ' is-active' : ''}`} aria-current={active ? 'page' : undefined}>
                {content}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
