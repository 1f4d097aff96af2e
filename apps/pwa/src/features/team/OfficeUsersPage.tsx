import { OFFICE_ROLES, OfficeRole, type OfficeUser, type Survey } from '@survey-bird/contracts';
import { useId, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { toast } from '../../lib/toast-store';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { useSession } from '../accounts/session';
import { EmailText, type Column } from './DataTable';
import { UserPlusIcon } from './icons';
import { MgmtHead, RefreshButton } from './Layout';
import { useOrganizationSurveys } from './organization-surveys';
import { serialNumber } from './paging';
import { UserListPanel } from './UserListPanel';
import { usePagedList } from './usePagedList';
import { msgId, useT } from '../../lib/i18n';

/** What each office role may do, as the invite form and the table explain it (catalog ids). */
export const OFFICE_ROLE_LABEL: Record<OfficeRole, { name: string; does: string }> = {
  owner: { name: msgId('office.officeRole.owner'), does: msgId('office.officeRole.ownerDoes') },
  admin: { name: msgId('office.officeRole.admin'), does: msgId('office.officeRole.adminDoes') },
  analyst: { name: msgId('office.officeRole.analyst'), does: msgId('office.officeRole.analystDoes') },
  finance: { name: msgId('office.officeRole.finance'), does: msgId('office.officeRole.financeDoes') },
  reviewer: { name: msgId('office.officeRole.reviewer'), does: msgId('office.officeRole.reviewerDoes') },
};

/** The owner's screen: office users with their roles and surveys; invite, change a role, remove. */
export function OfficeUsersPage() {
  const t = useT();
  const { user } = useSession();
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('officeUsers', { query: { page, searchQuery }, signal }));
  const [inviting, setInviting] = useState(false);
  const surveys = useOrganizationSurveys();
  const data = list.data;
  const page = data?.page ?? list.page;

  if (user?.officeRole && user.officeRole !== OfficeRole.owner) {
    return (
      <section className="mgmt">
        <MgmtHead title={t('nav.officeUsers')} />
        <div className="empty-note"><p className="empty-note__title">{t('office.officeUsers.ownerOnly')}</p></div>
      </section>
    );
  }

  const surveyName = (id: string) => surveys.find((s) => s._id === id)?.title ?? t('office.officeUsers.aSurvey');
  const columns: Column<OfficeUser>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: t('office.team.email'), className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: t('office.deactivated.role'), cell: (r) => <RoleSelect user={r} onChanged={list.refresh} /> },
    { header: t('nav.surveys'), className: 'wrap', cell: (r) => (r.surveyIds ? r.surveyIds.map(surveyName).join(', ') : <span className="cell-muted">{t('office.officeUsers.allSurveys')}</span>) },
    { header: t('office.responses.status'), cell: (r) => (r.registered ? t('office.officeUsers.active') : <span className="cell-muted">{t('office.officeUsers.invited')}</span>) },
    { header: t('office.team.access'), className: 'shrink', cell: (r) => <RemoveButton user={r} onRemoved={list.refresh} /> },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title={t('nav.officeUsers')}
        sub={t('office.officeUsers.sub')}
        actions={
          <>
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> {t('office.officeUsers.invite')}</button>
          </>
        }
      />
      <UserListPanel list={list} page={page} info={data} rows={data?.officeUsers} columns={columns}
        label={t('nav.officeUsers')} searchLabel={t('office.officeUsers.search')} placeholder={t('office.officeUsers.searchByEmail')}
        empty={<div className="empty-note"><p className="empty-note__title">{t('office.officeUsers.none')}</p></div>}
      />
      <InviteOfficeUserModal open={inviting} surveys={surveys} onClose={() => setInviting(false)} onInvited={list.refresh} />
    </section>
  );
}

function RoleSelect({ user, onChanged }: { user: OfficeUser; onChanged: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  async function change(role: OfficeRole) {
    setBusy(true);
    try {
      // An owner sees every survey; another role keeps the surveys it had.
      const reply = await api.call('updateOfficeUser', { params: { id: user._id }, body: { role, surveyIds: role === OfficeRole.owner ? null : user.surveyIds } });
      toast.success(reply.msg);
      onChanged();
    } catch {
      // The API client has toasted the server's message (the last owner, for one).
    } finally {
      setBusy(false);
    }
  }
  return (
    <select className="dt-select" aria-label={t('office.officeUsers.roleOf', { email: user.email })} value={user.role} disabled={busy} onChange={(e) => void change(e.target.value as OfficeRole)}>
      {OFFICE_ROLES.map((r) => <option key={r} value={r}>{t(OFFICE_ROLE_LABEL[r].name)}</option>)}
    </select>
  );
}

function RemoveButton({ user, onRemoved }: { user: OfficeUser; onRemoved: () => void }) {
  const t = useT();
  async function remove() {
    const yes = await confirmDialog({ title: t('office.officeUsers.removeTitle', { email: user.email }), body: t('office.officeUsers.removeBody'), action: t('common.remove'), cancel: t('office.officeUsers.keep'), tone: 'danger' });
    if (!yes) return;
    try {
      const reply = await api.call('removeOfficeUser', { params: { id: user._id } });
      toast.success(reply.msg);
      onRemoved();
    } catch {
      // Toasted by the API client.
    }
  }
  return <button type="button" className="btn btn--danger-outline btn--sm" onClick={() => void remove()} aria-label={t('office.officeUsers.removeLabel', { email: user.email })}>{t('common.remove')}</button>;
}

function InviteOfficeUserModal({ open, surveys, onClose, onInvited }: { open: boolean; surveys: Survey[]; onClose: () => void; onInvited: () => void }) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OfficeRole>(OfficeRole.analyst);
  const [limited, setLimited] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const surveyIds = limited && role !== OfficeRole.owner ? chosen : null;
      const reply = await api.call('inviteOfficeUser', { body: { email: email.trim(), role, surveyIds } });
      toast.success(reply.msg);
      setEmail('');
      setChosen([]);
      setLimited(false);
      onInvited();
      onClose();
    } catch {
      // The API client has toasted the server's message; the form keeps what was typed.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} title={t('office.officeUsers.invite')} onClose={onClose} className="modal--form">
      <form className="form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        <p className="form__hint">{t('office.officeUsers.inviteHint')}</p>
        <div className="field">
          <label htmlFor={`${id}-email`}>{t('office.invite.email')}</label>
          <input id={`${id}-email`} type="email" inputMode="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
        </div>
        <fieldset className="field office-fieldset">
          <legend>{t('office.deactivated.role')}</legend>
          {OFFICE_ROLES.map((r) => (
            <label key={r} className="office-choice">
              <input type="radio" name={`${id}-role`} value={r} checked={role === r} onChange={() => setRole(r)} />
              <span><strong>{t(OFFICE_ROLE_LABEL[r].name)}</strong>: {t(OFFICE_ROLE_LABEL[r].does)}</span>
            </label>
          ))}
        </fieldset>
        {role !== OfficeRole.owner && surveys.length > 0 && (
          <fieldset className="field office-fieldset">
            <legend>{t('nav.surveys')}</legend>
            <label className="office-choice"><input type="checkbox" checked={limited} onChange={(e) => setLimited(e.target.checked)} /> <span>{t('office.officeUsers.onlySome')}</span></label>
            {limited && surveys.map((s) => (
              <label key={s._id} className="office-choice">
                <input type="checkbox" checked={chosen.includes(s._id)} onChange={(e) => setChosen((c) => (e.target.checked ? [...c, s._id] : c.filter((x) => x !== s._id)))} />
                <span>{s.title}</span>
              </label>
            ))}
          </fieldset>
        )}
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn--primary" disabled={busy || !email.trim() || (limited && chosen.length === 0)}>{busy && <Spinner label={t('office.invite.sending')} />} {t('office.officeUsers.send')}</button>
        </div>
      </form>
    </Modal>
  );
}
