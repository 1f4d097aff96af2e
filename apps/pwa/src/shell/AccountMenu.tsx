import { Link } from '@tanstack/react-router';
import { canAdd, switchTo } from '../session/account-list';
import { setAccounts, useAccounts } from '../session/account-storage';
import { navigateTo } from '../lib/navigate';
import { paths } from '../lib/paths';
import { CheckIcon, ChevronDownIcon, PlusIcon, SettingsIcon } from '../ui/icons';
import { toast } from '../lib/toast-store';
import { usePopover } from '../ui/usePopover';
import { useT } from '../lib/i18n';
import { lazy, Suspense } from 'react';

// Shown only when the menu is open: its module is not in every screen's first download.
const LanguagePicker = lazy(() => import('../ui/LanguagePicker'));

const initial = (email: string) => email.trim().charAt(0).toUpperCase() || '?';

/** The active account with the switcher, Add Account and Manage Account. */
export function AccountMenu() {
  const t = useT();
  const accounts = useAccounts();
  const pop = usePopover();
  const active = accounts[0];
  if (!active) return null;

  function choose(email: string) {
    pop.close();
    setAccounts(switchTo(accounts, email));
    navigateTo(paths.landing);
  }

  function addAccount() {
    pop.close();
    if (!canAdd(accounts)) toast.error(t('msg.tooManyAccounts'));
    else navigateTo(paths.login);
  }

  return (
    <div className="popover" ref={pop.ref}>
      <button type="button" className="account-btn" aria-expanded={pop.open} aria-haspopup="true" title={active.email} onClick={pop.toggle}>
        <span className="avatar" aria-hidden="true">{initial(active.email)}</span>
        <span className="account-btn__email">{active.email}</span>
        <ChevronDownIcon size={16} />
      </button>
      {pop.open && (
        <div className="popover__panel menu" role="region" aria-label={t('account.accounts')}>
          <p className="menu__label">{t('account.signedIn')}</p>
          <ul className="menu__list">
            {accounts.map((a, i) => (
              <li key={a.email}>
                <button type="button" className="menu__item" aria-current={i === 0 ? 'true' : undefined} onClick={() => (i === 0 ? pop.close() : choose(a.email))}>
                  <span className="avatar avatar--sm" aria-hidden="true">{initial(a.email)}</span>
                  <span className="menu__email">{a.email}</span>
                  {i === 0 && <CheckIcon size={16} className="menu__check" />}
                </button>
              </li>
            ))}
          </ul>
          <div className="menu__sep" />
          <button type="button" className="menu__item" onClick={addAccount}>
            <PlusIcon size={18} /> {t('account.add')}
          </button>
          <Link to={paths.manageAccount} className="menu__item" onClick={pop.close}>
            <SettingsIcon size={18} /> {t('account.manage')}
          </Link>
          <div className="menu__sep" />
          <Suspense fallback={null}>
            <LanguagePicker className="menu__language" />
          </Suspense>
        </div>
      )}
    </div>
  );
}
