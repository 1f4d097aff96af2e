import { Role, type UserRow } from '@survey-bird/contracts';
import { api } from '../../api';
import { formatResponseDate } from '../../ui/format';
import { EmailText, type Column } from './DataTable';
import { MgmtHead, RefreshButton } from './Layout';
import { serialNumber } from './paging';
import { UserListPanel } from './UserListPanel';
import { usePagedList } from './usePagedList';
import { msgId, useT } from '../../lib/i18n';

const ROLE_LABEL: Record<string, string> = {
  [Role.nothing]: msgId('office.role.none'),
  [Role.fieldUser]: msgId('office.responses.fieldUser'),
  [Role.supervisor]: msgId('office.deactivated.supervisor'),
  [Role.organization]: msgId('nav.organization'),
  [Role.masterAdmin]: msgId('office.role.masterAdmin'),
  [Role.customerService]: msgId('office.role.customerService'),
};

/** Every account on the platform (GET /user/all), searchable and paged. */
export function UsersPage() {
  const t = useT();
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('allUsers', { query: { page, searchQuery }, signal }));
  const data = list.data;
  const page = data?.page ?? list.page;
  const columns: Column<UserRow>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: t('office.team.email'), className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: t('office.deactivated.role'), cell: (r) => (ROLE_LABEL[r.role] ? t(ROLE_LABEL[r.role]!) : r.role) },
    { header: t('nav.organization'), className: 'wrap', cell: (r) => r.organization_name ?? <span className="cell-muted">{t('common.na')}</span> },
    { header: t('office.responses.status'), cell: (r) => (r.verified ? <span className="badge badge--brand">{t('office.users.verified')}</span> : <span className="badge">{t('office.users.notVerified')}</span>) },
    { header: t('office.users.joined'), cell: (r) => formatResponseDate(r.createdAt) },
  ];
  return (
    <section className="mgmt">
      <MgmtHead title={t('nav.allUsers')} sub={t('office.users.sub')} actions={<RefreshButton onClick={list.refresh} busy={list.loading} />} />
      <UserListPanel list={list} page={page} info={data} rows={data?.users} columns={columns}
        label={t('office.users.users')} searchLabel={t('office.users.search')} placeholder={t('office.users.search')}
        empty={<p>{t('office.users.none')}</p>}
      />
    </section>
  );
}
