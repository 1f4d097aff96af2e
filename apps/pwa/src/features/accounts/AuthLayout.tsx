import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { paths } from '../../routes/paths';
import { Logo } from '../../ui/Logo';
import './accounts.css';

/** The centred card of the sign-in, register and reset screens. */
export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth">
      <div className="auth__brand">
        <Link to={paths.landing} aria-label="Survey Bird home"><Logo /></Link>
      </div>
      <main className="auth__card">
        <h1 className="auth__title">{title}</h1>
        {subtitle && <p className="auth__subtitle">{subtitle}</p>}
        {children}
      </main>
      <div className="auth__footer">
        {footer}
        <Link to={paths.landing} className="link">Go Home</Link>
      </div>
    </div>
  );
}

export function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  return result.success ? undefined : result.error?.issues[0]?.message;
}
