import { LoginBody } from '@survey-bird/contracts';
import { useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { requestPersistentStorage } from '../../offline/persist';
import { navigateTo } from '../../lib/navigate';
import { homeFor, safeRedirect } from '../../lib/paths';
import { PasswordField, TextField } from '../../ui/PasswordField';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { addAccount, canAdd } from '../../session/account-list';
import { getAccounts, setAccounts } from '../../session/account-storage';
import { AuthLayout, firstIssue } from './AuthLayout';
import { SendRefreshTokenDialog } from './SendRefreshTokenDialog';
import { serverText, useT } from '../../lib/i18n';
import { issueText } from './issue-text';

export function LoginPage() {
  const t = useT();
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
    if (!parsed.success) return toast.error(firstIssue(parsed) ?? t('msg.unexpectedError'));
    if (!canAdd(getAccounts(), parsed.data.email)) return toast.error(t('msg.tooManyAccounts'));
    setBusy(true);
    try {
      const reply = await api.call('login', { body: parsed.data });
      const added = addAccount(getAccounts(), { email: reply.user.email, token: reply.token });
      if (!added.ok) return toast.error(issueText(added.msg));
      setAccounts(added.accounts);
      toast.success(serverText(reply.msg, 'loginSuccess'));
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
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label={t('login.email')} type="email" name="email" autoComplete="username" value={email} onChange={setEmail} />
        <PasswordField label={t('login.password')} name="password" autoComplete="current-password" value={password} onChange={setPassword} visible={visible} onToggle={() => setVisible((v) => !v)} />
        <div className="form__row-end">
          <button type="button" className="link" onClick={() => setForgotOpen(true)}>{t('login.forgot')}</button>
        </div>
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy ? <Spinner label={t('login.signingIn')} /> : null} {t('login.submit')}
        </button>
      </form>
      <SendRefreshTokenDialog open={forgotOpen} initialEmail={email} onClose={() => setForgotOpen(false)} />
    </AuthLayout>
  );
}
