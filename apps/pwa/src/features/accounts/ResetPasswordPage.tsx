import { Msg, ResetPasswordBody } from '@survey-bird/contracts';
import { useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { loginHref, navigateTo } from '../../routes/navigate';
import { PasswordField, TextField } from '../../ui/PasswordField';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { AuthLayout, firstIssue } from './AuthLayout';

export function ResetPasswordPage() {
  const search = useSearch({ from: '/reset-password' });
  const resetToken = search.token ?? search.resetToken ?? '';
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!newPassword) return toast.error(Msg.provideNewPassword);
    if (confirm !== newPassword) return toast.error(Msg.passwordsDontMatch);
    const parsed = ResetPasswordBody.safeParse({ newPassword, resetToken });
    if (!parsed.success) return toast.error(firstIssue(parsed) ?? Msg.unexpectedError);
    setBusy(true);
    try {
      const reply = await api.call('resetPassword', { body: parsed.data });
      toast.success(reply.msg);
      navigateTo(loginHref(search.email));
    } catch {
      // toasted by the client
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout title="Reset password" subtitle="Choose a new password for your account.">
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        {search.email && <TextField label="Email" type="email" name="email" autoComplete="username" value={search.email} readOnly />}
        <PasswordField label="New password" name="new-password" autoComplete="new-password" value={newPassword} onChange={setNewPassword} visible={visible} onToggle={() => setVisible((v) => !v)} />
        <PasswordField label="Confirm password" name="confirm-password" autoComplete="new-password" value={confirm} onChange={setConfirm} visible={visible} />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy && <Spinner label="Saving" />} Reset password
        </button>
      </form>
    </AuthLayout>
  );
}
