import type { CopyTeamReply } from '@survey-bird/contracts';
import { useId, useState } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { useOrganizationSurveys } from './organization-surveys';
import { useT } from '../../lib/i18n';

/**
 * Copy another survey's team (its active supervisors and field users, with their rates, bank
 * details and supervisors) into this survey: a preview first, then one invitation and mail each.
 * People already on this survey are skipped, so copying again invites only who is new.
 */
export function CopyTeamModal({ surveyId, surveyTitle, onClose, onCopied }: { surveyId: string; surveyTitle: string; onClose: () => void; onCopied: () => void }) {
  const t = useT();
  const surveys = useOrganizationSurveys().filter((s) => s._id !== surveyId);
  const [from, setFrom] = useState('');
  const [plan, setPlan] = useState<CopyTeamReply | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function run(dryRun: boolean) {
    if (busy || !from) return;
    setBusy(true);
    try {
      const reply = await api.call('copyTeam', { body: { fromSurveyId: from, toSurveyId: surveyId, dryRun } });
      if (dryRun) return setPlan(reply);
      toast.success(t('office.copy.done', { msg: reply.msg, invited: reply.invited }));
      onCopied();
      onClose();
    } catch {
      // Toasted by the API client.
    } finally {
      setBusy(false);
    }
  }

  const count = (status: string) => plan?.rows.filter((r) => r.status === status).length ?? 0;
  const errors = plan?.rows.filter((r) => r.status === 'error') ?? [];
  return (
    <Modal open title={t('office.copy.title', { survey: surveyTitle })} onClose={onClose} className="modal--form">
      <div className="form">
        <div className="field">
          <label htmlFor={`${id}-from`}>{t('office.copy.from')}</label>
          <select id={`${id}-from`} value={from} onChange={(e) => { setFrom(e.target.value); setPlan(null); }}>
            <option value="">{t('office.copy.choose')}</option>
            {surveys.map((s) => <option key={s._id} value={s._id}>{s.title}</option>)}
          </select>
        </div>
        <p className="form__hint">{t('office.copy.hint')}</p>
        {plan && (
          <div role="status">
            <p className="copy-team__summary"><strong>{count('new')}</strong> {t('office.copy.toInvite')} · {t('office.copy.already', { n: count('existing'), survey: surveyTitle })} · {t('office.copy.cannot', { n: errors.length })}</p>
            {errors.length > 0 && <ul className="copy-team__errors">{errors.slice(0, 20).map((r) => <li key={r.email}>{r.email}: {r.msg}</li>)}</ul>}
          </div>
        )}
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
          {plan && count('new') > 0
            ? <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void run(false)}>{busy && <Spinner label={t('office.copy.copying')} />} {t('office.bulk.invitePeople', { count: count('new') })}</button>
            : <button type="button" className="btn btn--primary" disabled={busy || !from} onClick={() => void run(true)}>{busy && <Spinner label={t('office.flags.checking')} />} {t('office.bulk.preview')}</button>}
        </div>
      </div>
    </Modal>
  );
}
