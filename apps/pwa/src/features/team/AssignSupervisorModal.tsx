import type { FieldUser, Supervisor } from '@survey-bird/contracts';
import { useState } from 'react';
import { api } from '../../api';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { SearchBox } from './ListControls';
import { usePagedList } from './usePagedList';
import { useT } from '../../lib/i18n';

interface AssignSupervisorModalProps {
  surveyId: string;
  fieldUser: FieldUser;
  onClose: () => void;
  onAssigned: (row: FieldUser) => void;
}

/** Spec section 6: a search box and the survey's supervisors; clicking one assigns them. */
export function AssignSupervisorModal({ surveyId, fieldUser, onClose, onAssigned }: AssignSupervisorModalProps) {
  const t = useT();
  const list = usePagedList(({ searchQuery, signal }) => api.call('supervisors', { params: { surveyId }, query: { searchQuery }, signal }));
  const [busy, setBusy] = useState<string | null>(null);

  async function assign(supervisor: Supervisor) {
    if (busy) return;
    setBusy(supervisor._id);
    try {
      const reply = await api.call('assignSupervisor', { body: { supervisorId: supervisor._id, fieldUserId: fieldUser._id, survey_id: surveyId } });
      toast.success(reply.msg);
      onAssigned(reply.data);
      onClose();
    } catch {
      // toasted by the API client
    } finally {
      setBusy(null);
    }
  }

  const supervisors = list.data?.supervisors ?? [];
  return (
    <Modal open title={t('office.team.assignTitle')} onClose={onClose}>
      <p className="form__hint">{t('office.team.chooseWho')} <strong>{fieldUser.fullName}</strong>.</p>
      <SearchBox value={list.search} onChange={list.setSearch} placeholder={t('office.team.searchSupervisors')} label={t('office.team.searchSupervisors')} />
      <ul className="pick-list" aria-busy={list.loading}>
        {list.loading
          ? [0, 1, 2, 3].map((i) => <li key={i} className="pick-list__placeholder" aria-hidden="true"><span className="skeleton-bar" /></li>)
          : supervisors.map((s) => (
              <li key={s._id}>
                <button type="button" className={`pick-list__item${s._id === fieldUser.supervisorId ? ' is-active' : ''}`} disabled={busy !== null} onClick={() => void assign(s)}>
                  <span className="pick-list__title">{s.fullName}</span>
                  <span className="pick-list__meta">{s.email}</span>
                  {busy === s._id && <Spinner label={t('office.team.assigning')} />}
                </button>
              </li>
            ))}
      </ul>
      {!list.loading && supervisors.length === 0 && (
        <p className="pick-list__empty">
          {list.query ? t('office.team.noSupervisorFound', { query: list.query }) : t('office.team.noSupervisorInvited')}
        </p>
      )}
    </Modal>
  );
}
