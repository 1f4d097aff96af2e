import { Link, useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useAccounts } from '../features/accounts/account-storage';
import { paths } from '../routes/paths';
import { AccountMenu } from './AccountMenu';
import { OfflineIcon } from './icons';
import { Logo } from './Logo';
import { ProductGrid } from './ProductGrid';
import { useOnline } from './useOnline';

/** The portal header: logo home, optional page nav, product grid and account area. */
export function Header({ nav, className = '' }: { nav?: ReactNode; className?: string }) {
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
      <Link to={paths.landing} className="header__home" aria-label="Survey Bird home">
        <Logo />
      </Link>
      {nav}
      <div className="header__end">
        {!online && (
          <span className="offline-pill" role="status">
            <OfflineIcon size={16} /> Offline
          </span>
        )}
        <ProductGrid requested={showProducts} />
        {accounts.length === 0 ? (
          <Link to={paths.login} className="btn btn--primary btn--sm">Sign in</Link>
        ) : (
          <AccountMenu />
        )}
      </div>
    </header>
  );
}
