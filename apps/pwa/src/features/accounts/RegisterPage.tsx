import { Msg, RegisterBody } from '@survey-bird/contracts';
import { useSearch } from '@tanstack/react-router';
import { api } from '../../api';
import { loginHref, navigateTo } from '../../routes/navigate';
import { TextField } from '../../ui/PasswordField';
import { toast } from '../../ui/toast-store';
import { AuthLayout, firstIssue } from './AuthLayout';
import { NewPasswordFields, useNewPasswordForm } from './new-password-form';

/** Create an account from an invitation link (the e-mail comes from the link). */
export function RegisterPage() {
  // invite: the invitation link's token; it proves the mailbox, so no confirmation mail follows.
  const { email = '', invite } = useSearch({ from: '/register' });
  const form = useNewPasswordForm();

  const prepare = () => {
    const parsed = RegisterBody.safeParse({ email, password: form.password, invite });
    if (!parsed.success) return firstIssue(parsed) ?? Msg.unexpectedError;
    return async () => {
      await api.call('register', { body: parsed.data });
      toast.success(Msg.accountCreated);
      navigateTo(loginHref(parsed.data.email));
    };
  };

  return (
    <AuthLayout title="Create your account" subtitle={invite ? 'You were invited to Survey Bird. Choose a password to accept the invitation.' : 'You were invited to Survey Bird. Choose a password to accept the invitation; we will e-mail you a link to confirm your address.'}>
      <form className="form" onSubmit={(e) => void form.submit(e, prepare)} noValidate>
        <NewPasswordFields form={form} label="Password" names={['password', 'confirm']} button="Create account" busyLabel="Creating account"
          before={<TextField label="Email" type="email" name="email" autoComplete="username" value={email} readOnly />} />
      </form>
    </AuthLayout>
  );
}
