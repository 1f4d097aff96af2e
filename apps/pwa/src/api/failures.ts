import { activeAccount } from '../session/account-storage';
import { currentPath, loginHref, navigateTo } from '../lib/navigate';
import { confirmDialog } from '../lib/dialog-store';
import { toast } from '../lib/toast-store';
import { serverText, t } from '../lib/i18n';
import type { Failure } from './client';
import { api } from './index';

/** What the app does when a call fails (spec section 8); the client only classifies. */
export function handleFailure(failure: Failure): void {
  switch (failure.kind) {
    case 'reauth': {
      toast.error(serverText(failure.msg, failure.code));
      const path = currentPath();
      if (!path.startsWith('/login')) navigateTo(loginHref(activeAccount()?.email, path), true);
      return;
    }
    case 'linkExpired': {
      const id = failure.args.params?.id;
      void offerResend(t('auth.linkExpiredTitle'), serverText(failure.msg, failure.code), t('auth.resendVerificationLink'), typeof id === 'string' ? { id } : undefined);
      return;
    }
    case 'checkEmail': {
      const email = activeAccount()?.email;
      navigateTo('/', true);
      void offerResend(t('auth.accessDenied'), serverText(failure.msg, failure.code), t('auth.resendVerificationEmail'), email ? { email } : undefined);
      return;
    }
    default:
      toast.error(failure.msg ? serverText(failure.msg, failure.code) : t('msg.unexpectedError'));
  }
}

async function offerResend(title: string, body: string, action: string, by: { id: string } | { email: string } | undefined) {
  const confirmed = await confirmDialog({ title, body, action, cancel: t('common.cancel') });
  if (!confirmed || !by) return;
  const reply = await api.call('resendVerification', { body: by }).catch(() => undefined);
  if (reply) toast.success(serverText(reply.msg, 'verificationResent'));
}
