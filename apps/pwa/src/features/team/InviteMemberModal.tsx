import { BANK_PLACEHOLDER, NIGERIAN_BANKS } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { checkInvite, EMPTY_INVITE, type InviteForm, type InviteKind } from './invite';

interface InviteMemberModalProps {
  kind: InviteKind;
  surveyId: string | null | undefined;
  surveyTitle?: string;
  open: boolean;
  onClose: () => void;
  onInvited: () => void;
}

const TITLES: Record<InviteKind, string> = { fieldUser: 'Invite field user', supervisor: 'Invite supervisor' };

/** Spec section 6: the invite form; client checks in the spec's order, then the server's msg is toasted. */
export function InviteMemberModal({ kind, surveyId, surveyTitle, open, onClose, onInvited }: InviteMemberModalProps) {
  const [form, setForm] = useState<InviteForm>(EMPTY_INVITE);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof InviteForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const reply = kind === 'fieldUser' ? await inviteFieldUser(surveyId, form) : await inviteSupervisor(surveyId, form);
      if (!reply) return;
      toast.success(reply.msg);
      setForm(EMPTY_INVITE);
      onInvited();
      onClose();
    } catch {
      // The API client has toasted the server's message; the form keeps what was typed.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title={TITLES[kind]} onClose={onClose} className="modal--form">
      <form className="form invite-form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        {surveyTitle && <p className="form__hint">They will be invited to <strong>{surveyTitle}</strong> and receive an e-mail to set up their account.</p>}
        <div className="field invite-form__wide">
          <label htmlFor={`${kind}-name`}>Full name</label>
          <input id={`${kind}-name`} value={form.fullName} onChange={set('fullName')} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${kind}-email`}>E-mail</label>
          <input id={`${kind}-email`} type="email" inputMode="email" value={form.email} onChange={set('email')} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${kind}-phone`}>Phone number</label>
          <input id={`${kind}-phone`} type="tel" inputMode="tel" value={form.phoneNumber} onChange={set('phoneNumber')} autoComplete="off" />
        </div>
        <div className="field invite-form__wide">
          <label htmlFor={`${kind}-bank`}>Bank</label>
          <select id={`${kind}-bank`} value={form.bank} onChange={set('bank')}>
            <option value="">{BANK_PLACEHOLDER}</option>
            {NIGERIAN_BANKS.map((b) => <option key={b} value={b}>{b}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${kind}-acct-no`}>Account number</label>
          <input id={`${kind}-acct-no`} inputMode="numeric" maxLength={kind === 'supervisor' ? 10 : 30} value={form.accountNumber} onChange={set('accountNumber')} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${kind}-acct-name`}>Account name</label>
          <input id={`${kind}-acct-name`} value={form.accountName} onChange={set('accountName')} autoComplete="off" />
        </div>
        {kind === 'fieldUser' && (
          <div className="field invite-form__wide">
            <label htmlFor={`${kind}-rate`}>Rate per response (₦)</label>
            <input id={`${kind}-rate`} type="number" inputMode="numeric" min={0} step={1} value={form.rate} onChange={set('rate')} />
          </div>
        )}
        <div className="modal__actions invite-form__wide">
          <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy && <Spinner label="Sending invitation" />} {TITLES[kind]}
          </button>
        </div>
      </form>
    </Modal>
  );
}

async function inviteFieldUser(surveyId: string | null | undefined, form: InviteForm) {
  const checked = checkInvite('fieldUser', surveyId, form);
  if (!checked.ok) return void toast.error(checked.msg);
  return api.call('inviteFieldUser', { body: checked.body });
}

async function inviteSupervisor(surveyId: string | null | undefined, form: InviteForm) {
  const checked = checkInvite('supervisor', surveyId, form);
  if (!checked.ok) return void toast.error(checked.msg);
  return api.call('inviteSupervisor', { body: checked.body });
}
