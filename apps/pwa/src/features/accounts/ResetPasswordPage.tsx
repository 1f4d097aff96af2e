import { ResetPasswordBody } from '@survey-bird/contracts';
import { useSearch } from '@tanstack/react-router';
import { api } from '../../api';
import { loginHref, navigateTo } from '../../lib/navigate';
import { TextField } from '../../ui/PasswordField';
import { toast } from '../../lib/toast-store';
import { AuthLayout, firstIssue } from './AuthLayout';
import { NewPasswordFields, useNewPasswordForm } from './new-password-form';
import { serverText, useT } from '../../lib/i18n';

export function ResetPasswordPage() {
  const search = useSearch({ from: '/reset-password' });
  const resetToken = search.token ?? search.resetToken ?? '';
  const form = useNewPasswordForm();

  const t = useT();
  const prepare = () => {
    if (!form.password) return t('msg.provideNewPassword');
    const parsed = ResetPasswordBody.safeParse({ newPassword: form.password, resetToken });
    if (!parsed.success) return firstIssue(parsed) ?? t('msg.unexpectedError');
    return async () => {
      const reply = await api.call('resetPassword', { body: parsed.data });
      toast.success(serverText(reply.msg, 'passwordReset'));
      navigateTo(loginHref(search.email));
    };
  };

  return (
    <AuthLayout title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <form className="form" onSubmit={(e) => void form.submit(e, prepare)} noValidate>
        <NewPasswordFields form={form} label={t('reset.newPassword')} names={['new-password', 'confirm-password']} button={t('reset.title')} busyLabel={t('reset.saving')}
          before={search.email && <TextField label={t('login.email')} type="email" name="email" autoComplete="username" value={search.email} readOnly />} />
      </form>
    </AuthLayout>
  );
}
