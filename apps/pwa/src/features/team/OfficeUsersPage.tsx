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

/** What each office role may do, as the invite form and the table explain it. */
export const OFFICE_ROLE_LABEL: Record<OfficeRole, { name: string; does: string }> = {
  owner: { name: 'Owner', does: 'Everything, including office users' },
  admin: { name: 'Admin', does: 'Everything but office users' },
  analyst: { name: 'Analyst', does: 'Dashboards, table, responses and export' },
  finance: { name: 'Finance', does: 'Payouts, and reads the table' },
  reviewer: { name: 'Reviewer', does: 'Review and flags, and reads' },
};

/** The owner's screen: office users with their roles and surveys; invite, change a role, remove. */
export function OfficeUsersPage() {
  const { user } = useSession();
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('officeUsers', { query: { page, searchQuery }, signal }));
  const [inviting, setInviting] = useState(false);
  const surveys = useOrganizationSurveys();
  const data = list.data;
  const page = data?.page ?? list.page;

  if (user?.officeRole && user.officeRole !== OfficeRole.owner) {
    return (
      <section className="mgmt">
        <MgmtHead title="Office users" />
        <div className="empty-note"><p className="empty-note__title">Only an owner manages office users</p></div>
      </section>
    );
  }

  const surveyName = (id: string) => surveys.find((s) => s._id === id)?.title ?? 'A survey';
  const columns: Column<OfficeUser>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Email Address', className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: 'Role', cell: (r) => <RoleSelect user={r} onChanged={list.refresh} /> },
    { header: 'Surveys', className: 'wrap', cell: (r) => (r.surveyIds ? r.surveyIds.map(surveyName).join(', ') : <span className="cell-muted">All surveys</span>) },
    { header: 'Status', cell: (r) => (r.registered ? 'Active' : <span className="cell-muted">Invited</span>) },
    { header: 'Access', className: 'shrink', cell: (r) => <RemoveButton user={r} onRemoved={list.refresh} /> },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title="Office users"
        sub="People who run this organization from the office, each with a role."
        actions={
          <>
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> Invite office user</button>
          </>
        }
      />
      <UserListPanel list={list} page={page} info={data} rows={data?.officeUsers} columns={columns}
        label="Office users" searchLabel="Search office users" placeholder="Search by e-mail"
        empty={<div className="empty-note"><p className="empty-note__title">No office user yet</p></div>}
      />
      <InviteOfficeUserModal open={inviting} surveys={surveys} onClose={() => setInviting(false)} onInvited={list.refresh} />
    </section>
  );
}

function RoleSelect({ user, onChanged }: { user: OfficeUser; onChanged: () => void }) {
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
    <select className="dt-select" aria-label={`Role of ${user.email}`} value={user.role} disabled={busy} onChange={(e) => void change(e.target.value as OfficeRole)}>
      {OFFICE_ROLES.map((r) => <option key={r} value={r}>{OFFICE_ROLE_LABEL[r].name}</option>)}
    </select>
  );
}

function RemoveButton({ user, onRemoved }: { user: OfficeUser; onRemoved: () => void }) {
  async function remove() {
    const yes = await confirmDialog({ title: `Remove ${user.email}?`, body: 'They lose access to this organization at once. Their past actions stay in the audit log.', action: 'Remove', cancel: 'Keep', tone: 'danger' });
    if (!yes) return;
    try {
      const reply = await api.call('removeOfficeUser', { params: { id: user._id } });
      toast.success(reply.msg);
      onRemoved();
    } catch {
      // Toasted by the API client.
    }
  }
  return <button type="button" className="btn btn--danger-outline btn--sm" onClick={() => void remove()} aria-label={`Remove ${user.email}`}>Remove</button>;
}

function InviteOfficeUserModal({ open, surveys, onClose, onInvited }: { open: boolean; surveys: Survey[]; onClose: () => void; onInvited: () => void }) {
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
    <Modal open={open} title="Invite office user" onClose={onClose} className="modal--form">
      <form className="form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        <p className="form__hint">They receive an e-mail to set up their account, then sign in to this organization.</p>
        <div className="field">
          <label htmlFor={`${id}-email`}>E-mail</label>
          <input id={`${id}-email`} type="email" inputMode="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
        </div>
        <fieldset className="field office-fieldset">
          <legend>Role</legend>
          {OFFICE_ROLES.map((r) => (
            <label key={r} className="office-choice">
              <input type="radio" name={`${id}-role`} value={r} checked={role === r} onChange={() => setRole(r)} />
              <span><strong>{OFFICE_ROLE_LABEL[r].name}</strong>: {OFFICE_ROLE_LABEL[r].does}</span>
            </label>
          ))}
        </fieldset>
        {role !== OfficeRole.owner && surveys.length > 0 && (
          <fieldset className="field office-fieldset">
            <legend>Surveys</legend>
            <label className="office-choice"><input type="checkbox" checked={limited} onChange={(e) => setLimited(e.target.checked)} /> <span>Only some surveys</span></label>
            {limited && surveys.map((s) => (
              <label key={s._id} className="office-choice">
                <input type="checkbox" checked={chosen.includes(s._id)} onChange={(e) => setChosen((c) => (e.target.checked ? [...c, s._id] : c.filter((x) => x !== s._id)))} />
                <span>{s.title}</span>
              </label>
            ))}
          </fieldset>
        )}
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn--primary" disabled={busy || !email.trim() || (limited && chosen.length === 0)}>{busy && <Spinner label="Sending invitation" />} Send invitation</button>
        </div>
      </form>
    </Modal>
  );
}
