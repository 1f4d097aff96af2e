import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { paths } from '../../lib/paths';
import { Logo } from '../../ui/Logo';
import './accounts.css';
import { useT } from '../../lib/i18n';
import { LanguagePicker } from '../../ui/LanguagePicker';
import { issueText } from './issue-text';

/** The centred card of the sign-in, register and reset screens. */
export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  const t = useT();
  return (
    <div className="auth">
      <div className="auth__brand">
        <Link to={paths.landing} aria-label={t('nav.home')}><Logo /></Link>
        <LanguagePicker className="auth__language" signedIn={false} />
      </div>
      <main className="auth__card">
        <h1 className="auth__title">{title}</h1>
        {subtitle && <p className="auth__subtitle">{subtitle}</p>}
        {children}
      </main>
      <div className="auth__footer">
        {footer}
        <Link to={paths.landing} className="link">{t('nav.goHome')}</Link>
      </div>
    </div>
  );
}

export function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  const message = result.success ? undefined : result.error?.issues[0]?.message;
  return message === undefined ? undefined : issueText(message);
}
