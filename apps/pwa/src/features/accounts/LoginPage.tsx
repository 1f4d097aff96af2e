import { LoginBody, Msg } from '@survey-bird/contracts';
import { useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { requestPersistentStorage } from '../../offline/persist';
import { navigateTo } from '../../routes/navigate';
import { homeFor, safeRedirect } from '../../routes/paths';
import { PasswordField, TextField } from '../../ui/PasswordField';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { addAccount, canAdd } from './account-list';
import { getAccounts, setAccounts } from './account-storage';
import { AuthLayout, firstIssue } from './AuthLayout';
import { SendRefreshTokenDialog } from './SendRefreshTokenDialog';

export function LoginPage() {
  const search = useSearch({ from: '/login' });
  const [email, setEmail] = useState(search.email ?? '');
  const [password, setPassword] = useState('');
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const parsed = LoginBody.safeParse({ email, password });
    if (!parsed.success) return toast.error(firstIssue(parsed) ?? Msg.unexpectedError);
    if (!canAdd(getAccounts(), parsed.data.email)) return toast.error(Msg.tooManyAccounts);
    setBusy(true);
    try {
      const reply = await api.call('login', { body: parsed.data });
      const added = addAccount(getAccounts(), { email: reply.user.email, token: reply.token });
      if (!added.ok) return toast.error(added.msg);
      setAccounts(added.accounts);
      toast.success(reply.msg);
      void requestPersistentStorage();
      // Without a redirect each role lands on its home, not the landing page (docs/decisions.md).
      navigateTo(safeRedirect(search.redirect, homeFor(reply.user.role)));
    } catch {
      // The client has shown the server's message.
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout title="Sign In" subtitle="Welcome back. Sign in to collect and review field data.">
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Email" type="email" name="email" autoComplete="username" value={email} onChange={setEmail} />
        <PasswordField label="Password" name="password" autoComplete="current-password" value={password} onChange={setPassword} visible={visible} onToggle={() => setVisible((v) => !v)} />
        <div className="form__row-end">
          <button type="button" className="link" onClick={() => setForgotOpen(true)}>Forgot Password?</button>
        </div>
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy ? <Spinner label="Signing in" /> : null} Login
        </button>
      </form>
      <SendRefreshTokenDialog open={forgotOpen} initialEmail={email} onClose={() => setForgotOpen(false)} />
    </AuthLayout>
  );
}
