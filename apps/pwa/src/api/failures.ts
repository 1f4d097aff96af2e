import { Msg } from '@survey-bird/contracts';
import { activeAccount } from '../features/accounts/account-storage';
import { currentPath, loginHref, navigateTo } from '../routes/navigate';
import { confirmDialog } from '../ui/dialog-store';
import { toast } from '../ui/toast-store';
import type { Failure } from './client';
import { api } from './index';

/** What the app does when a call fails (spec section 8); the client only classifies. */
export function handleFailure(failure: Failure): void {
  switch (failure.kind) {
    case 'reauth': {
      toast.error(failure.msg);
      const path = currentPath();
      if (!path.startsWith('/login')) navigateTo(loginHref(activeAccount()?.email, path), true);
      return;
    }
    case 'linkExpired': {
      const id = failure.args.params?.id;
      void offerResend('Link Expired!', failure.msg, 'Resend verification link', typeof id === 'string' ? { id } : undefined);
      return;
    }
    case 'checkEmail': {
      const email = activeAccount()?.email;
      navigateTo('/', true);
      void offerResend('Access Denied', failure.msg, 'Resend verification email', email ? { email } : undefined);
      return;
    }
    default:
      toast.error(failure.msg || Msg.unexpectedError);
  }
}

async function offerResend(title: string, body: string, action: string, by: { id: string } | { email: string } | undefined) {
  const confirmed = await confirmDialog({ title, body, action, cancel: 'Cancel' });
  if (!confirmed || !by) return;
  const reply = await api.call('resendVerification', { body: by }).catch(() => undefined);
  if (reply) toast.success(reply.msg);
}
