import { BANK_PLACEHOLDER, NIGERIAN_BANKS } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { checkInvite, EMPTY_INVITE, type InviteForm, type InviteKind } from './invite';
import { useOrganizationSurveys } from './organization-surveys';
import { msgId, t, useT } from '../../lib/i18n';

interface InviteMemberModalProps {
  kind: InviteKind;
  surveyId: string | null | undefined;
  surveyTitle?: string;
  open: boolean;
  onClose: () => void;
  onInvited: () => void;
}

const TITLES: Record<InviteKind, string> = { fieldUser: msgId('office.team.inviteFieldUser'), supervisor: msgId('office.team.inviteSupervisor') };

/**
 * Spec section 6: the invite form; client checks in the spec's order, then the server's msg is
 * toasted. Other surveys may be ticked: the person is then invited to each (one request, one
 * invitation and mail per survey) and the toast says how many took.
 */
export function InviteMemberModal({ kind, surveyId, surveyTitle, open, onClose, onInvited }: InviteMemberModalProps) {
  const t = useT();
  const [form, setForm] = useState<InviteForm>(EMPTY_INVITE);
  const [busy, setBusy] = useState(false);
  const [also, setAlso] = useState<string[]>([]);
  const others = useOrganizationSurveys().filter((s) => s._id !== surveyId);
  const set = (key: keyof InviteForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const reply = also.length ? await inviteToSurveys(kind, surveyId, also, form) : kind === 'fieldUser' ? await inviteFieldUser(surveyId, form) : await inviteSupervisor(surveyId, form);
      if (!reply) return;
      toast.success(reply.msg);
      setForm(EMPTY_INVITE);
      setAlso([]);
      onInvited();
      onClose();
    } catch {
      // The API client has toasted the server's message; the form keeps what was typed.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title={t(TITLES[kind])} onClose={onClose} className="modal--form">
      <form className="form invite-form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        {surveyTitle && <p className="form__hint">{t('office.invite.before')} <strong>{surveyTitle}</strong> {t('office.invite.after')}</p>}
        <div className="field invite-form__wide">
          <label htmlFor={`${kind}-name`}>{t('office.invite.fullName')}</label>
          <input id={`${kind}-name`} value={form.fullName} onChange={set('fullName')} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${kind}-email`}>{t('office.invite.email')}</label>
          <input id={`${kind}-email`} type="email" inputMode="email" value={form.email} onChange={set('email')} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${kind}-phone`}>{t('office.invite.phone')}</label>
          <input id={`${kind}-phone`} type="tel" inputMode="tel" value={form.phoneNumber} onChange={set('phoneNumber')} autoComplete="off" />
        </div>
        <div className="field invite-form__wide">
          <label htmlFor={`${kind}-bank`}>{t('office.payout.bank')}</label>
          <select id={`${kind}-bank`} value={form.bank} onChange={set('bank')}>
            <option value="">{BANK_PLACEHOLDER}</option>
            {NIGERIAN_BANKS.map((b) => <option key={b} value={b}>{b}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${kind}-acct-no`}>{t('office.invite.accountNumber')}</label>
          <input id={`${kind}-acct-no`} inputMode="numeric" maxLength={kind === 'supervisor' ? 10 : 30} value={form.accountNumber} onChange={set('accountNumber')} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${kind}-acct-name`}>{t('office.invite.accountName')}</label>
          <input id={`${kind}-acct-name`} value={form.accountName} onChange={set('accountName')} autoComplete="off" />
        </div>
        {kind === 'fieldUser' && (
          <div className="field invite-form__wide">
            <label htmlFor={`${kind}-rate`}>{t('office.invite.rate')}</label>
            <input id={`${kind}-rate`} type="number" inputMode="numeric" min={0} step={1} value={form.rate} onChange={set('rate')} />
          </div>
        )}
        {others.length > 0 && (
          <fieldset className="field office-fieldset invite-form__wide">
            <legend>{t('office.invite.also')}</legend>
            {others.map((s) => (
              <label key={s._id} className="office-choice">
                <input type="checkbox" checked={also.includes(s._id)} onChange={(e) => setAlso((c) => (e.target.checked ? [...c, s._id] : c.filter((x) => x !== s._id)))} />
                <span>{s.title}</span>
              </label>
            ))}
          </fieldset>
        )}
        {kind === 'fieldUser' && (
          <label className="field invite-form__wide invite-form__check">
            <input type="checkbox" checked={form.backchecker === true} onChange={(e) => setForm({ ...form, backchecker: e.target.checked })} /> {t('office.invite.backchecker')}
          </label>
        )}
        <div className="modal__actions invite-form__wide">
          <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy && <Spinner label={t('office.invite.sending')} />} {t(TITLES[kind])}
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

/** The same person to this survey and the ticked ones: a summary of what each survey answered. */
async function inviteToSurveys(kind: InviteKind, surveyId: string | null | undefined, also: string[], form: InviteForm) {
  const checked = kind === 'fieldUser' ? checkInvite('fieldUser', surveyId, form) : checkInvite('supervisor', surveyId, form);
  if (!checked.ok || !surveyId) return void toast.error(checked.ok ? '' : checked.msg);
  const { survey_id: _first, ...person } = checked.body;
  const reply = await api.call('inviteToSurveys', { body: { ...person, role: kind === 'fieldUser' ? 'field_user' : 'supervisor', surveyIds: [surveyId, ...also] } });
  const count = (status: string) => reply.results.filter((r) => r.status === status).length;
  const refused = reply.results.filter((r) => r.status === 'error');
  const parts = [t('office.invite.invitedTo', { invited: reply.invited, total: reply.results.length }), count('existing') ? t('office.invite.alreadyOn', { n: count('existing') }) : '', ...refused.map((r) => `${r.surveyTitle}: ${r.msg}`)].filter(Boolean);
  return { msg: parts.join('; ') };
}
