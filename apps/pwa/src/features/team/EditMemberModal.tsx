import { BANK_PLACEHOLDER, NIGERIAN_BANKS, type FieldUser, type UpdateMemberBody } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api, officeMay } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { toast } from '../../lib/toast-store';
import { useSession } from '../accounts/session';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { useT } from '../../lib/i18n';

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
  const t = useT();
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
    const yes = await confirmDialog({ title: t('office.edit.deactivateTitle', { name: member.fullName }), body: t('office.edit.deactivateBody', { email: member.email }), action: t('office.edit.deactivate'), cancel: t('common.cancel'), tone: 'danger' });
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
    <Modal open title={t('office.team.editName', { name: member.fullName })} onClose={onClose} className="modal--form">
      <form className="form invite-form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        {member.rate !== undefined && (
          <div className="field invite-form__wide">
            <label htmlFor="edit-rate">{t('office.invite.rate')}</label>
            <input id="edit-rate" type="number" inputMode="numeric" min={0} step={1} value={form.rate} onChange={set('rate')} />
            <p className="form__hint">{t('office.edit.rateHint')}</p>
          </div>
        )}
        <div className="field invite-form__wide">
          <label htmlFor="edit-phone">{t('office.invite.phone')}</label>
          <input id="edit-phone" type="tel" inputMode="tel" value={form.phoneNumber} onChange={set('phoneNumber')} autoComplete="off" />
        </div>
        <div className="field invite-form__wide">
          <label htmlFor="edit-bank">{t('office.payout.bank')}</label>
          <select id="edit-bank" value={form.bank} onChange={set('bank')}>
            <option value="">{BANK_PLACEHOLDER}</option>
            {[...new Set([member.bank, ...NIGERIAN_BANKS])].filter(Boolean).map((b) => <option key={b} value={b}>{b}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="edit-acct-no">{t('office.invite.accountNumber')}</label>
          <input id="edit-acct-no" inputMode="numeric" maxLength={10} value={form.accountNumber} onChange={set('accountNumber')} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="edit-acct-name">{t('office.invite.accountName')}</label>
          <input id="edit-acct-name" value={form.accountName} onChange={set('accountName')} autoComplete="off" />
        </div>
        {bankChanged && <p className="form__hint invite-form__wide edit-member__warning" role="note">{t('office.edit.bankWarning')}</p>}
        {officeMay(user?.officeRole, 'deactivatePerson') && (
          <div className="deactivate-zone invite-form__wide">
            <p className="form__hint">{t('office.edit.deactivateHint', { name: member.fullName })}</p>
            <button type="button" className="btn btn--danger-outline btn--sm" disabled={busy} onClick={() => void deactivate()}>{t('office.edit.deactivateEverywhere')}</button>
          </div>
        )}
        <div className="modal__actions invite-form__wide">
          <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn--primary" disabled={busy}>{busy && <Spinner label={t('office.edit.saving')} />} {t('office.edit.save')}</button>
        </div>
      </form>
    </Modal>
  );
}
