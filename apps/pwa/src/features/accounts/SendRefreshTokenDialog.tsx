import { SendRefreshTokenBody } from '@survey-bird/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { navigateTo } from '../../lib/navigate';
import { paths } from '../../lib/paths';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/PasswordField';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { firstIssue } from './AuthLayout';
import { serverText, useT } from '../../lib/i18n';

/** 'Send Refresh Token': mails a password reset link (spec screen 12). */
export function SendRefreshTokenDialog({ open, initialEmail, onClose }: { open: boolean; initialEmail: string; onClose: () => void }) {
  const t = useT();
  const [email, setEmail] = useState(initialEmail);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setEmail(initialEmail);
  }, [open, initialEmail]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const parsed = SendRefreshTokenBody.safeParse({ email });
    if (!parsed.success) return toast.error(firstIssue(parsed) ?? t('msg.provideEmail'));
    setBusy(true);
    try {
      const reply = await api.call('sendRefreshToken', { body: parsed.data });
      toast.success(serverText(reply.msg, 'resetLinkSent'));
      onClose();
      navigateTo(paths.landing);
    } catch {
      // toasted by the client
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title={t('reset.dialogTitle')} onClose={onClose}>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="modal__body">{t('reset.dialogBody')}</p>
        <TextField label={t('login.email')} type="email" name="reset-email" autoComplete="email" value={email} onChange={setEmail} />
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
            {busy && <Spinner label={t('common.sending')} />} {t('common.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
