import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { api } from '../../api';
import { navigateTo } from '../../lib/navigate';
import { paths } from '../../lib/paths';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { AuthLayout } from './AuthLayout';
import { serverText, useT } from '../../lib/i18n';

/** A link token is spent on first use: remember which ones this page already sent. */
const sent = new Set<string>();

export function ConfirmEmailPage() {
  const t = useT();
  const { id } = useParams({ from: '/confirm-email/$id' });
  useEffect(() => {
    if (sent.has(id)) return;
    sent.add(id);
    api
      .call('confirmEmail', { params: { id } })
      .then((reply) => toast.success(serverText(reply.msg, 'accountVerified')))
      .catch(() => undefined)
      .finally(() => navigateTo(paths.login, true));
  }, [id]);
  return (
    <AuthLayout title={t('confirm.title')}>
      <p className="auth__status"><Spinner /> {t('confirm.wait')}</p>
    </AuthLayout>
  );
}
