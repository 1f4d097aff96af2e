import { Msg, SendRefreshTokenBody } from '@survey-bird/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { navigateTo } from '../../routes/navigate';
import { paths } from '../../routes/paths';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/PasswordField';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { firstIssue } from './AuthLayout';

/** 'Send Refresh Token': mails a password reset link (spec screen 12). */
export function SendRefreshTokenDialog({ open, initialEmail, onClose }: { open: boolean; initialEmail: string; onClose: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setEmail(initialEmail);
  }, [open, initialEmail]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const parsed = SendRefreshTokenBody.safeParse({ email });
    if (!parsed.success) return toast.error(firstIssue(parsed) ?? Msg.provideEmail);
    setBusy(true);
    try {
      const reply = await api.call('sendRefreshToken', { body: parsed.data });
      toast.success(reply.msg);
      onClose();
      navigateTo(paths.landing);
    } catch {
      // toasted by the client
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title="Send Refresh Token" onClose={onClose}>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="modal__body">Enter the e-mail of your account and we will send you a link to set a new password.</p>
        <TextField label="Email" type="email" name="reset-email" autoComplete="email" value={email} onChange={setEmail} />
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn--primary" disabled={busy} aria-busy={busy}>
            {busy && <Spinner label="Sending" />} Submit
          </button>
        </div>
      </form>
    </Modal>
  );
}
