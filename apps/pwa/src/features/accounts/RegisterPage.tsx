import { RegisterBody } from '@survey-bird/contracts';
import { useSearch } from '@tanstack/react-router';
import { api } from '../../api';
import { loginHref, navigateTo } from '../../lib/navigate';
import { TextField } from '../../ui/PasswordField';
import { toast } from '../../lib/toast-store';
import { AuthLayout, firstIssue } from './AuthLayout';
import { NewPasswordFields, useNewPasswordForm } from './new-password-form';
import { useLanguage, useT } from '../../lib/i18n';

/** Create an account from an invitation link (the e-mail comes from the link). */
export function RegisterPage() {
  // invite: the invitation link's token; it proves the mailbox, so no confirmation mail follows.
  const { email = '', invite } = useSearch({ from: '/register' });
  const t = useT();
  const lang = useLanguage();
  const form = useNewPasswordForm();

  const prepare = () => {
    const parsed = RegisterBody.safeParse({ email, password: form.password, invite, language: lang });
    if (!parsed.success) return firstIssue(parsed) ?? t('msg.unexpectedError');
    return async () => {
      await api.call('register', { body: parsed.data });
      toast.success(t('msg.accountCreated'));
      navigateTo(loginHref(parsed.data.email));
    };
  };

  return (
    <AuthLayout title={t('register.title')} subtitle={invite ? t('register.subtitleInvite') : t('register.subtitle')}>
      <form className="form" onSubmit={(e) => void form.submit(e, prepare)} noValidate>
        <NewPasswordFields form={form} label={t('login.password')} names={['password', 'confirm']} button={t('register.submit')} busyLabel={t('register.busy')}
          before={<TextField label={t('login.email')} type="email" name="email" autoComplete="username" value={email} readOnly />} />
      </form>
    </AuthLayout>
  );
}
