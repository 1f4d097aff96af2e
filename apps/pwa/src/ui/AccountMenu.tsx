import { Msg } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { canAdd, switchTo } from '../features/accounts/account-list';
import { setAccounts, useAccounts } from '../features/accounts/account-storage';
import { navigateTo } from '../routes/navigate';
import { paths } from '../routes/paths';
import { CheckIcon, ChevronDownIcon, PlusIcon, SettingsIcon } from './icons';
import { toast } from './toast-store';
import { usePopover } from './usePopover';

const initial = (email: string) => email.trim().charAt(0).toUpperCase() || '?';

/** The active account with the switcher, Add Account and Manage Account. */
export function AccountMenu() {
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
    if (!canAdd(accounts)) toast.error(Msg.tooManyAccounts);
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
        <div className="popover__panel menu" role="region" aria-label="Accounts">
          <p className="menu__label">Signed in accounts</p>
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
            <PlusIcon size={18} /> Add Account
          </button>
          <Link to={paths.manageAccount} className="menu__item" onClick={pop.close}>
            <SettingsIcon size={18} /> Manage Account
          </Link>
        </div>
      )}
    </div>
  );
}
