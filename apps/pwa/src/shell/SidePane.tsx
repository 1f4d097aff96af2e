import { type OfficeRole, Role } from '@survey-bird/contracts';
import { officeMay } from '../api';
import { Link, useRouterState } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import { paths } from '../lib/paths';
import { msgId, useT } from '../lib/i18n';
import { useActiveSurvey } from '../features/surveys/active-survey';
import {
  CheckIcon, ClockIcon, EyeOffIcon, FieldUsersIcon, InsightIcon, MailIcon, MapIcon, OrganizationIcon, QuestionsIcon, SettingsIcon, SupervisorsIcon, SurveysIcon, UsersIcon, WalletIcon, LayersIcon, KeyIcon,
} from '../ui/icons';

type Item = {
  label: string;
  /** Label in the phone's bottom bar. */
  short: string;
  Icon: ComponentType<{ size?: number }>;
  /** An office user sees the link only when their role may call this route. */
  needs?: Parameters<typeof officeMay>[1];
  /** A field user sees the link only when invited as a back-checker on one of their surveys. */
  backcheckerOnly?: true;
} & ({ to: string; also?: readonly string[]; /** In the side pane only, not the phone's bottom bar (six tabs cut their labels at 390 px). */ wideOnly?: boolean } | { action: 'settings' });

export type ShellRole = typeof Role.organization | typeof Role.supervisor | typeof Role.fieldUser | typeof Role.masterAdmin;

/** Side pane links by role (spec section 2). */
export const NAV: Record<ShellRole, Item[]> = {
  [Role.organization]: [
    { label: msgId('nav.insight'), short: msgId('nav.short.insight'), Icon: InsightIcon, to: paths.orgInsight },
    { label: msgId('nav.surveys'), short: msgId('nav.short.surveys'), Icon: SurveysIcon, to: paths.orgSurveys, also: [paths.orgCreateSurvey] },
    { label: msgId('nav.manageSupervisors'), short: msgId('nav.short.supervisors'), Icon: SupervisorsIcon, to: paths.orgSupervisors, also: [paths.orgSupervisorsAlias] },
    { label: msgId('nav.manageFieldUsers'), short: msgId('nav.short.fieldUsers'), Icon: FieldUsersIcon, to: paths.orgFieldUsers, also: [paths.orgFieldUsersAlias, paths.orgDeactivated] },
    { label: msgId('nav.payouts'), short: msgId('nav.short.payouts'), Icon: WalletIcon, to: paths.orgPayouts, needs: 'payouts' },
    // The phone's bottom bar keeps five tabs (six cut their labels at 390 px): the map is reached from
    // Insight's link there; audit, webhooks, API tokens and office users are desk work, in the side pane only.
    { label: msgId('nav.map'), short: msgId('nav.short.map'), Icon: MapIcon, to: paths.orgMap, also: [paths.orgTeamMap], wideOnly: true },
    { label: msgId('nav.bankChanges'), short: msgId('nav.short.banks'), Icon: WalletIcon, to: paths.orgBankChanges, needs: 'bankChangeRequests', wideOnly: true },
    { label: msgId('nav.backchecks'), short: msgId('nav.short.checks'), Icon: CheckIcon, to: paths.orgBackchecks, needs: 'surveyBackchecks', wideOnly: true },
    { label: msgId('nav.auditLog'), short: msgId('nav.short.audit'), Icon: ClockIcon, to: paths.orgAudit, needs: 'audit', wideOnly: true },
    { label: msgId('nav.respondents'), short: msgId('nav.short.people'), Icon: EyeOffIcon, to: paths.orgRespondents, needs: 'respondents', wideOnly: true },
    { label: msgId('nav.webhooks'), short: msgId('nav.short.webhooks'), Icon: LayersIcon, to: paths.orgWebhooks, needs: 'surveyWebhooks', wideOnly: true },
    { label: msgId('nav.apiTokens'), short: msgId('nav.short.tokens'), Icon: KeyIcon, to: paths.orgTokens, needs: 'tokens', wideOnly: true },
    { label: msgId('nav.officeUsers'), short: msgId('nav.short.office'), Icon: UsersIcon, to: paths.orgOfficeUsers, needs: 'officeUsers', wideOnly: true },
  ],
  [Role.fieldUser]: [
    { label: msgId('nav.questions'), short: msgId('nav.short.questions'), Icon: QuestionsIcon, to: paths.fieldUser, also: [paths.fieldUserResponse] },
    { label: msgId('nav.earnings'), short: msgId('nav.short.earnings'), Icon: WalletIcon, to: paths.fieldUserEarnings, also: [paths.fieldUserBank] },
    { label: msgId('nav.myMap'), short: msgId('nav.short.map'), Icon: MapIcon, to: paths.fieldUserMap },
    { label: msgId('nav.backchecks'), short: msgId('nav.short.checks'), Icon: CheckIcon, to: paths.fieldUserBackchecks, backcheckerOnly: true },
    { label: msgId('nav.fieldUserSettings'), short: msgId('nav.short.settings'), Icon: SettingsIcon, action: 'settings' },
  ],
  [Role.supervisor]: [
    { label: msgId('nav.insight'), short: msgId('nav.short.insight'), Icon: InsightIcon, to: paths.supervisorInsight },
    { label: msgId('nav.manageFieldUsers'), short: msgId('nav.short.fieldUsers'), Icon: FieldUsersIcon, to: paths.supervisorFieldUsers },
    { label: msgId('nav.payouts'), short: msgId('nav.short.payouts'), Icon: WalletIcon, to: paths.supervisorPayouts },
    { label: msgId('nav.map'), short: msgId('nav.short.map'), Icon: MapIcon, to: paths.supervisorMap, also: [paths.supervisorTeamMap] },
    // Five tabs at most on a phone: a supervisor reaches back-checks from the side pane on a wide screen.
    { label: msgId('nav.backchecks'), short: msgId('nav.short.checks'), Icon: CheckIcon, to: paths.supervisorBackchecks, wideOnly: true },
    { label: msgId('nav.settings'), short: msgId('nav.short.settings'), Icon: SettingsIcon, action: 'settings' },
  ],
  [Role.masterAdmin]: [
    { label: msgId('nav.organization'), short: msgId('nav.short.orgs'), Icon: OrganizationIcon, to: paths.masterAdmin },
    { label: msgId('nav.allUsers'), short: msgId('nav.short.users'), Icon: UsersIcon, to: paths.masterAdminUsers },
    { label: msgId('nav.allFieldUsers'), short: msgId('nav.short.fieldUsers'), Icon: FieldUsersIcon, to: paths.masterAdminFieldUsers },
    { label: msgId('nav.sendMail'), short: msgId('nav.short.mail'), Icon: MailIcon, to: paths.masterAdminMail },
  ],
};

/**
 * The links one account sees: an office user's by their role's routes; a field user's Back-checks
 * only when a survey of theirs names them a back-checker (its list's `backchecker`), or while they
 * are on that screen (a link never vanishes under the user).
 */
export function navItems(role: ShellRole, officeRole: OfficeRole | null | undefined, backchecker: boolean, pathname: string): Item[] {
  return NAV[role].filter((item) => (!item.needs || officeMay(officeRole, item.needs)) && (!item.backcheckerOnly || backchecker || ('to' in item && item.to === pathname)));
}

/** Whether the signed-in field user back-checks on any survey on this phone's list (their own or the remembered active one). */
function useBackchecker(): boolean {
  const { surveys, survey } = useActiveSurvey();
  return survey?.backchecker === true || surveys.some((s) => s.backchecker === true);
}

/** A vertical pane on wide screens; on phones the same links become a bottom tab bar (CSS). */
export function SidePane({ role, officeRole, onOpenSettings, settingsOpen }: { role: ShellRole; officeRole?: OfficeRole | null; onOpenSettings: () => void; settingsOpen: boolean }) {
  const t = useT();
  const pathname = useRouterState({ select: (s) => s.location.pathname.replace(/\/$/, '') || '/' });
  const backchecker = useBackchecker();
  return (
    <nav className="sidepane" aria-label={t('nav.main')}>
      <ul className="sidepane__list">
        {navItems(role, officeRole, backchecker, pathname).map((item) => {
          const content = (
            <>
              <item.Icon size={22} />
              <span className="sidepane__label">{t(item.label)}</span>
              <span className="sidepane__short">{t(item.short)}</span>
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
            <li key={item.label} className={item.wideOnly ? 'sidepane__wide-only' : undefined}>
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
