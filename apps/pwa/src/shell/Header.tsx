import { Link, useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useAccounts } from '../session/account-storage';
import { paths } from '../lib/paths';
import { AccountMenu } from './AccountMenu';
import { OfflineIcon } from '../ui/icons';
import { Logo } from '../ui/Logo';
import { ProductGrid } from './ProductGrid';
import { useOnline } from '../ui/useOnline';
import { useT } from '../lib/i18n';

/** The portal header: logo home, optional page nav, product grid and account area. */
export function Header({ nav, className = '' }: { nav?: ReactNode; className?: string }) {
  const t = useT();
  const accounts = useAccounts();
  const online = useOnline();
  const showProducts = useRouterState({
    select: (s) => {
      const v = (s.location.search as Record<string, unknown>).showMicroservices;
      return v === true || v === 'true';
    },
  });
  return (
    <header className={`header ${className}`}>
      <Link to={paths.landing} className="header__home" aria-label={t('nav.home')}>
        <Logo />
      </Link>
      {nav}
      <div className="header__end">
        {!online && (
          <span className="offline-pill" role="status">
            <OfflineIcon size={16} /> {t('header.offline')}
          </span>
        )}
        <ProductGrid requested={showProducts} />
        {accounts.length === 0 ? (
          <Link to={paths.login} className="btn btn--primary btn--sm">{t('header.signIn')}</Link>
        ) : (
          <AccountMenu />
        )}
      </div>
    </header>
  );
}
