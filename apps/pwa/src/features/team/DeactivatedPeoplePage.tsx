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
import { msgId, useT } from '../../lib/i18n';

const ROLE: Record<string, string> = { field_user: msgId('office.responses.fieldUser'), supervisor: msgId('office.deactivated.supervisor') };

/**
 * People deactivated across the organization (from Edit on a team screen), newest first; Reactivate
 * gives back every survey the deactivation took, with their supervisors. Their responses and money stayed.
 */
export function DeactivatedPeoplePage() {
  const t = useT();
  const { user } = useSession();
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('deactivatedPeople', { query: { page, searchQuery }, signal }));
  const data = list.data;
  const page = data?.page ?? list.page;
  const mayChange = officeMay(user?.officeRole, 'reactivatePerson');
  const columns: Column<DeactivatedPerson>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: t('office.bulk.name'), className: 'wrap', cell: (r) => r.fullName },
    { header: t('office.team.email'), className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: t('office.deactivated.role'), cell: (r) => (ROLE[r.role] ? t(ROLE[r.role]!) : r.role) },
    { header: t('nav.surveys'), className: 'num', cell: (r) => r.surveys },
    { header: t('office.deactivated.when'), cell: (r) => formatResponseDate(r.deactivatedAt) },
    ...(mayChange ? [{ header: t('office.team.access'), className: 'shrink', cell: (r: DeactivatedPerson) => <ReactivateButton person={r} onDone={list.refresh} /> }] : []),
  ];
  return (
    <section className="mgmt">
      <MgmtHead title={t('office.team.deactivated')} sub={t('office.deactivated.sub')} actions={<RefreshButton onClick={list.refresh} busy={list.loading} />} />
      <div className="mgmt-panel">
        <DataTable label={t('office.team.deactivated')} columns={columns} rows={data?.people} rowKey={(r) => r.email} loading={list.loading}
          empty={<div className="empty-note"><p className="empty-note__title">{t('office.deactivated.nobody')}</p><p>{t('office.deactivated.how')}</p></div>} />
        <Pager page={page} count={data?.people.length ?? 0} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage} />
      </div>
    </section>
  );
}

function ReactivateButton({ person, onDone }: { person: DeactivatedPerson; onDone: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  async function reactivate() {
    const yes = await confirmDialog({ title: t('office.deactivated.reactivateTitle', { name: person.fullName }), body: t('office.deactivated.reactivateBody', { email: person.email, count: person.surveys }), action: t('office.deactivated.reactivate'), cancel: t('common.cancel') });
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
  return <button type="button" className="btn btn--ghost btn--sm" disabled={busy} onClick={() => void reactivate()}>{t('office.deactivated.reactivate')}</button>;
}
