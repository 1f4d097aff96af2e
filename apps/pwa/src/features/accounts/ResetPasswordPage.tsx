import { Msg, ResetPasswordBody } from '@survey-bird/contracts';
import { useSearch } from '@tanstack/react-router';
import { api } from '../../api';
import { loginHref, navigateTo } from '../../routes/navigate';
import { TextField } from '../../ui/PasswordField';
import { toast } from '../../ui/toast-store';
import { AuthLayout, firstIssue } from './AuthLayout';
import { NewPasswordFields, useNewPasswordForm } from './new-password-form';

export function ResetPasswordPage() {
  const search = useSearch({ from: '/reset-password' });
  const resetToken = search.token ?? search.resetToken ?? '';
  const form = useNewPasswordForm();

  const prepare = () => {
    if (!form.password) return Msg.provideNewPassword;
    const parsed = ResetPasswordBody.safeParse({ newPassword: form.password, resetToken });
    if (!parsed.success) return firstIssue(parsed) ?? Msg.unexpectedError;
    return async () => {
      const reply = await api.call('resetPassword', { body: parsed.data });
      toast.success(reply.msg);
      navigateTo(loginHref(search.email));
    };
  };

  return (
    <AuthLayout title="Reset password" subtitle="Choose a new password for your account.">
      <form className="form" onSubmit={(e) => void form.submit(e, prepare)} noValidate>
        <NewPasswordFields form={form} label="New password" names={['new-password', 'confirm-password']} button="Reset password" busyLabel="Saving"
          before={search.email && <TextField label="Email" type="email" name="email" autoComplete="username" value={search.email} readOnly />} />
      </form>
    </AuthLayout>
  );
}
