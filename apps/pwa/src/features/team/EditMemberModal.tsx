import { BANK_PLACEHOLDER, NIGERIAN_BANKS, type FieldUser, type UpdateMemberBody } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api, officeMay } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { toast } from '../../lib/toast-store';
import { useSession } from '../accounts/session';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';

interface EditMemberModalProps {
  surveyId: string;
  member: Pick<FieldUser, '_id' | 'fullName' | 'email' | 'phoneNumber' | 'bank' | 'accountNumber' | 'accountName'> & { rate?: number };
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Edit a person on this survey: rate (field users; for responses received from now on), phone and
 * bank details. Only what changed is sent; the server checks it with the invitation's messages.
 * An owner or admin can also deactivate the person on every survey of the organization from here.
 */
export function EditMemberModal({ surveyId, member, onClose, onSaved }: EditMemberModalProps) {
  const [form, setForm] = useState({ rate: member.rate === undefined ? '' : String(member.rate), phoneNumber: member.phoneNumber, bank: member.bank, accountNumber: member.accountNumber, accountName: member.accountName });
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const { user } = useSession();
  const bankChanged = form.bank !== member.bank || form.accountNumber !== member.accountNumber || form.accountName !== member.accountName;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const body: UpdateMemberBody = {};
    if (member.rate !== undefined && form.rate !== String(member.rate)) body.rate = form.rate;
    if (form.phoneNumber !== member.phoneNumber) body.phoneNumber = form.phoneNumber;
    if (bankChanged) Object.assign(body, { bank: form.bank, accountNumber: form.accountNumber, accountName: form.accountName });
    if (Object.keys(body).length === 0) return onClose();
    setBusy(true);
    try {
      const reply = await api.call('updateMember', { params: { surveyId, memberId: member._id }, body });
      toast.success(reply.msg);
      onSaved();
      onClose();
    } catch {
      // The API client has toasted the server's message; the form keeps what was typed.
    } finally {
      setBusy(false);
    }
  }

  async function deactivate() {
    const yes = await confirmDialog({ title: `Deactivate ${member.fullName}?`, body: `${member.email} loses access to every survey of your organization at once. Their responses and the money they are owed stay in your records.`, action: 'Deactivate', cancel: 'Cancel', tone: 'danger' });
    if (!yes) return;
    setBusy(true);
    try {
      const reply = await api.call('deactivatePerson', { body: { email: member.email } });
      toast.success(reply.msg);
      onSaved();
      onClose();
    } catch {
      // Toasted by the API client.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open title={`Edit ${member.fullName}`} onClose={onClose} className="modal--form">
      <form className="form invite-form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        {member.rate !== undefined && (
          <div className="field invite-form__wide">
            <label htmlFor="edit-rate">Rate per response (₦)</label>
            <input id="edit-rate" type="number" inputMode="numeric" min={0} step={1} value={form.rate} onChange={set('rate')} />
            <p className="form__hint">A new rate applies to responses received from now on; responses already in keep theirs.</p>
          </div>
        )}
        <div className="field invite-form__wide">
          <label htmlFor="edit-phone">Phone number</label>
          <input id="edit-phone" type="tel" inputMode="tel" value={form.phoneNumber} onChange={set('phoneNumber')} autoComplete="off" />
        </div>
        <div className="field invite-form__wide">
          <label htmlFor="edit-bank">Bank</label>
          <select id="edit-bank" value={form.bank} onChange={set('bank')}>
            <option value="">{BANK_PLACEHOLDER}</option>
            {[...new Set([member.bank, ...NIGERIAN_BANKS])].filter(Boolean).map((b) => <option key={b} value={b}>{b}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="edit-acct-no">Account number</label>
          <input id="edit-acct-no" inputMode="numeric" maxLength={10} value={form.accountNumber} onChange={set('accountNumber')} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="edit-acct-name">Account name</label>
          <input id="edit-acct-name" value={form.accountName} onChange={set('accountName')} autoComplete="off" />
        </div>
        {bankChanged && <p className="form__hint invite-form__wide edit-member__warning" role="note">Bank changes are recorded in the audit log and the person is told by e-mail. A payout made within 24 hours will flag this line.</p>}
        {officeMay(user?.officeRole, 'deactivatePerson') && (
          <div className="deactivate-zone invite-form__wide">
            <p className="form__hint">Deactivate takes {member.fullName} off every survey of your organization at once; their responses and money owed stay. Reactivate them from Deactivated people.</p>
            <button type="button" className="btn btn--danger-outline btn--sm" disabled={busy} onClick={() => void deactivate()}>Deactivate on every survey</button>
          </div>
        )}
        <div className="modal__actions invite-form__wide">
          <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn--primary" disabled={busy}>{busy && <Spinner label="Saving" />} Save changes</button>
        </div>
      </form>
    </Modal>
  );
}
