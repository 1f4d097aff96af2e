import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { api } from '../../api';
import { navigateTo } from '../../routes/navigate';
import { paths } from '../../routes/paths';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { AuthLayout } from './AuthLayout';

/** A link token is spent on first use: remember which ones this page already sent. */
const sent = new Set<string>();

export function ConfirmEmailPage() {
  const { id } = useParams({ from: '/confirm-email/$id' });
  useEffect(() => {
    if (sent.has(id)) return;
    sent.add(id);
    api
      .call('confirmEmail', { params: { id } })
      .then((reply) => toast.success(reply.msg))
      .catch(() => undefined)
      .finally(() => navigateTo(paths.login, true));
  }, [id]);
  return (
    <AuthLayout title="Confirming your e-mail">
      <p className="auth__status"><Spinner /> One moment…</p>
    </AuthLayout>
  );
}
