import { Msg, RegisterBody } from '@survey-bird/contracts';
import { useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { loginHref, navigateTo } from '../../routes/navigate';
import { PasswordField, TextField } from '../../ui/PasswordField';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { AuthLayout, firstIssue } from './AuthLayout';

/** Create an account from an invitation link (the e-mail comes from the link). */
export function RegisterPage() {
  // invite: the invitation link's token; it proves the mailbox, so no confirmation mail follows.
  const { email = '', invite } = useSearch({ from: '/register' });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const parsed = RegisterBody.safeParse({ email, password, invite });
    if (!parsed.success) return toast.error(firstIssue(parsed) ?? Msg.unexpectedError);
    if (confirm !== password) return toast.error(Msg.passwordsDontMatch);
    setBusy(true);
    try {
      await api.call('register', { body: parsed.data });
      toast.success(Msg.accountCreated);
      navigateTo(loginHref(parsed.data.email));
    } catch {
      // toasted by the client
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout title="Create your account" subtitle={invite ? 'You were invited to Survey Bird. Choose a password to accept the invitation.' : 'You were invited to Survey Bird. Choose a password to accept the invitation; we will e-mail you a link to confirm your address.'}>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Email" type="email" name="email" autoComplete="username" value={email} readOnly />
        <PasswordField label="Password" name="password" autoComplete="new-password" value={password} onChange={setPassword} visible={visible} onToggle={() => setVisible((v) => !v)} />
        <PasswordField label="Confirm password" name="confirm" autoComplete="new-password" value={confirm} onChange={setConfirm} visible={visible} />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy && <Spinner label="Creating account" />} Create account
        </button>
      </form>
    </AuthLayout>
  );
}
