import { ChangePasswordBody, Msg } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { counts } from '../../offline';
import { accountKey } from '../../session/account-key';
import { navigateTo } from '../../lib/navigate';
import { homeFor, paths } from '../../lib/paths';
import { confirmDialog } from '../../lib/dialog-store';
import { Header } from '../../shell/Header';
import { SignOutIcon } from '../../ui/icons';
import { PasswordField } from '../../ui/PasswordField';
import { Redirect } from '../../ui/Redirect';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { removeAccount, type StoredAccount } from '../../session/account-list';
import { getAccounts, setAccounts, useAccounts } from '../../session/account-storage';
import { firstIssue } from './AuthLayout';
import { useSession } from './session';
import { deviceId } from '../../session/device-id';
import './accounts.css';

/** Ends one session on the server; a token the server already rejects is simply forgotten. */
async function signOutSession(account: StoredAccount): Promise<string> {
  const reply = await api.call('signOut', { token: account.token, handleErrors: false }).catch(() => undefined);
  return reply?.msg ?? Msg.accountSignedOut;
}

/** Responses of these accounts still on this phone (waiting, sending or failed); sign-out never deletes them. */
async function unsentOnPhone(accounts: readonly StoredAccount[]): Promise<number> {
  const all = await Promise.all(accounts.map((a) => counts(accountKey(a.email)).catch(() => null)));
  return all.reduce((n, c) => n + (c ? c.queued + c.sending + c.failed : 0), 0);
}

const unsentText = (n: number) => `${n} ${n === 1 ? 'response is' : 'responses are'} still on this phone and will be sent when you sign in again.`;

export function ManageAccountPage() {
  const accounts = useAccounts();
  if (accounts.length === 0) return <Redirect to={paths.landing} />;
  return (
    <div className="shell">
      <Header />
      <main id="main" className="account-page">
        <BackHome />
        <h1 className="screen__title">Manage Account</h1>
        <div className="account-page__grid">
          <Sessions accounts={accounts} />
          <ChangePassword account={accounts[0]!} />
        </div>
      </main>
    </div>
  );
}

/** The way back to the app from here (the header's logo leads to the landing page). */
function BackHome() {
  const { user } = useSession();
  if (!user) return null;
  const home = homeFor(user.role);
  return (
    <a href={home} className="account-page__back" onClick={(e) => {
      e.preventDefault();
      navigateTo(home);
    }}>
      ← Back to Survey Bird
    </a>
  );
}

function Sessions({ accounts }: { accounts: StoredAccount[] }) {
  const [busy, setBusy] = useState<string | null>(null);

  async function signOut(account: StoredAccount) {
    const unsent = await unsentOnPhone([account]);
    if (unsent > 0 && !(await confirmDialog({ title: `Sign out ${account.email}?`, body: unsentText(unsent), action: 'Sign Out', cancel: 'Cancel' }))) return;
    setBusy(account.email);
    const msg = await signOutSession(account);
    setAccounts(removeAccount(getAccounts(), account.email));
    setBusy(null);
    toast.success(msg);
  }

  async function signOutAll() {
    const unsent = await unsentOnPhone(getAccounts());
    const ok = await confirmDialog({
      title: 'Sign out from all accounts?',
      body: unsent > 0 ? unsentText(unsent) : 'Every account signed in on this browser will be signed out.',
      action: 'Sign out all',
      cancel: 'Cancel',
      tone: 'danger',
    });
    if (!ok) return;
    setBusy('*');
    await Promise.all(getAccounts().map(signOutSession));
    setAccounts([]);
    setBusy(null);
    toast.success(Msg.allSessionsSignedOut);
    navigateTo(paths.landing);
  }

  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="card__title">Your Sessions</h2>
      <p className="card__text">Accounts signed in on this browser. The first one is active.</p>
      <ul className="sessions">
        {accounts.map((a, i) => (
          <li key={a.email} className="session">
            <span className="avatar" aria-hidden="true">{a.email.charAt(0).toUpperCase()}</span>
            <span className="session__email">
              {a.email}
              {i === 0 && <span className="badge badge--brand">Active</span>}
            </span>
            <button type="button" className="btn btn--ghost btn--sm" disabled={busy !== null} onClick={() => void signOut(a)} aria-label={`Sign Out ${a.email}`}>
              {busy === a.email ? <Spinner label="Signing out" /> : <SignOutIcon size={16} />} Sign Out
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn--danger-outline btn--block" disabled={busy !== null} onClick={() => void signOutAll()}>
        Sign out from all accounts
      </button>
    </section>
  );
}

function ChangePassword({ account }: { account: StoredAccount }) {
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [signOutOthers, setSignOutOthers] = useState(true);
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const parsed = ChangePasswordBody.safeParse({ oldPassword, newPassword, signOutOthers });
    if (!parsed.success) return toast.error(firstIssue(parsed) ?? Msg.unexpectedError);
    if (confirm !== newPassword) return toast.error(Msg.passwordDontMatch);
    setBusy(true);
    try {
      const reply = await api.call('changePassword', {
        body: parsed.data,
        token: account.token,
        headers: { deviceid: deviceId(), email: account.email },
      });
      toast.success(reply.msg);
      setOld('');
      setNew('');
      setConfirm('');
    } catch {
      // toasted by the client
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title" className="card__title">Change password</h2>
      <p className="card__text">For <strong>{account.email}</strong></p>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <input type="email" name="username" autoComplete="username" value={account.email} readOnly hidden />
        <PasswordField label="Old password" name="old-password" autoComplete="current-password" value={oldPassword} onChange={setOld} visible={visible} onToggle={() => setVisible((v) => !v)} />
        <PasswordField label="New password" name="new-password" autoComplete="new-password" value={newPassword} onChange={setNew} visible={visible} />
        <PasswordField label="Confirm new password" name="confirm-password" autoComplete="new-password" value={confirm} onChange={setConfirm} visible={visible} />
        <label className="check">
          <input type="checkbox" checked={signOutOthers} onChange={(e) => setSignOutOthers(e.target.checked)} />
          <span>Sign out from all devices after password change</span>
        </label>
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy && <Spinner label="Saving" />} Change password
        </button>
      </form>
    </section>
  );
}
