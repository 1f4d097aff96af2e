import { useState, type FormEvent, type ReactNode } from 'react';
import { PasswordField } from '../../ui/PasswordField';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { t, useT } from '../../lib/i18n';

/** A form's outcome before sending: the message to show, or the request to make. */
export type Prepared = string | (() => Promise<void>);

/**
 * The state and submit of a form that sets a new password (registration, reset): the password,
 * its confirmation, the shared show/hide toggle and a busy flag. `prepare` checks the fields in
 * the page's own order (the confirmation is compared after it); the client toasts request failures.
 */
export function useNewPasswordForm() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent, prepare: () => Prepared) {
    e.preventDefault();
    if (busy) return;
    const prepared = prepare();
    if (typeof prepared === 'string') return toast.error(prepared);
    if (confirm !== password) return toast.error(t('msg.passwordsDontMatch'));
    setBusy(true);
    try {
      await prepared();
    } catch {
      // toasted by the client
    } finally {
      setBusy(false);
    }
  }

  return { password, setPassword, confirm, setConfirm, visible, toggle: () => setVisible((v) => !v), busy, submit };
}

type NewPasswordForm = ReturnType<typeof useNewPasswordForm>;

/** The two password fields and the submit button; `before` holds the fields above them (the e-mail). */
export function NewPasswordFields({ form, label, names, button, busyLabel, before }: { form: NewPasswordForm; label: string; names: [string, string]; button: string; busyLabel: string; before?: ReactNode }) {
  useT();
  return (
    <>
      {before}
      <PasswordField label={label} name={names[0]} autoComplete="new-password" value={form.password} onChange={form.setPassword} visible={form.visible} onToggle={form.toggle} />
      <PasswordField label={t('reset.confirmPassword')} name={names[1]} autoComplete="new-password" value={form.confirm} onChange={form.setConfirm} visible={form.visible} />
      <button type="submit" className="btn btn--primary btn--block" disabled={form.busy}>
        {form.busy && <Spinner label={busyLabel} />} {button}
      </button>
    </>
  );
}
