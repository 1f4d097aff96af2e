import type { DeactivatedPerson } from '@survey-bird/contracts';
import { useState } from 'react';
import { api, officeMay } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { toast } from '../../lib/toast-store';
import { formatResponseDate } from '../../ui/format';
import { useSession } from '../accounts/session';
import { DataTable, EmailText, type Column } from './DataTable';
import { MgmtHead, RefreshButton } from './Layout';
import { Pager } from './ListControls';
import { serialNumber } from './paging';
import { usePagedList } from './usePagedList';

const ROLE: Record<string, string> = { field_user: 'Field user', supervisor: 'Supervisor' };

/**
 * People deactivated across the organization (from Edit on a team screen), newest first; Reactivate
 * gives back every survey the deactivation took, with their supervisors. Their responses and money stayed.
 */
export function DeactivatedPeoplePage() {
  const { user } = useSession();
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('deactivatedPeople', { query: { page, searchQuery }, signal }));
  const data = list.data;
  const page = data?.page ?? list.page;
  const mayChange = officeMay(user?.officeRole, 'reactivatePerson');
  const columns: Column<DeactivatedPerson>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Name', className: 'wrap', cell: (r) => r.fullName },
    { header: 'Email Address', className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: 'Role', cell: (r) => ROLE[r.role] ?? r.role },
    { header: 'Surveys', className: 'num', cell: (r) => r.surveys },
    { header: 'Deactivated', cell: (r) => formatResponseDate(r.deactivatedAt) },
    ...(mayChange ? [{ header: 'Access', className: 'shrink', cell: (r: DeactivatedPerson) => <ReactivateButton person={r} onDone={list.refresh} /> }] : []),
  ];
  return (
    <section className="mgmt">
      <MgmtHead title="Deactivated people" sub="Field users and supervisors switched off on every survey. Their responses and the money they are owed stay in your records." actions={<RefreshButton onClick={list.refresh} busy={list.loading} />} />
      <div className="mgmt-panel">
        <DataTable label="Deactivated people" columns={columns} rows={data?.people} rowKey={(r) => r.email} loading={list.loading}
          empty={<div className="empty-note"><p className="empty-note__title">Nobody is deactivated</p><p>Deactivate a person from Edit on Manage Field Users or Manage Supervisors.</p></div>} />
        <Pager page={page} count={data?.people.length ?? 0} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage} />
      </div>
    </section>
  );
}

function ReactivateButton({ person, onDone }: { person: DeactivatedPerson; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  async function reactivate() {
    const yes = await confirmDialog({ title: `Reactivate ${person.fullName}?`, body: `${person.email} gets back the ${person.surveys === 1 ? 'survey' : `${person.surveys} surveys`} the deactivation took, with their supervisors.`, action: 'Reactivate', cancel: 'Cancel' });
    if (!yes) return;
    setBusy(true);
    try {
      const reply = await api.call('reactivatePerson', { body: { email: person.email } });
      toast.success(reply.msg);
      onDone();
    } catch {
      // Toasted by the API client.
    } finally {
      setBusy(false);
    }
  }
  return <button type="button" className="btn btn--ghost btn--sm" disabled={busy} onClick={() => void reactivate()}>Reactivate</button>;
}
