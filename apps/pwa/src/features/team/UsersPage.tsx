import { Role, type UserRow } from '@survey-bird/contracts';
import { api } from '../../api';
import { formatResponseDate } from '../../ui/format';
import { EmailText, type Column } from './DataTable';
import { MgmtHead, RefreshButton } from './Layout';
import { serialNumber } from './paging';
import { UserListPanel } from './UserListPanel';
import { usePagedList } from './usePagedList';

const ROLE_LABEL: Record<string, string> = {
  [Role.nothing]: 'No role yet',
  [Role.fieldUser]: 'Field user',
  [Role.supervisor]: 'Supervisor',
  [Role.organization]: 'Organization',
  [Role.masterAdmin]: 'Master admin',
  [Role.customerService]: 'Customer service',
};

/** Every account on the platform (GET /user/all), searchable and paged. */
export function UsersPage() {
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('allUsers', { query: { page, searchQuery }, signal }));
  const data = list.data;
  const page = data?.page ?? list.page;
  const columns: Column<UserRow>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Email Address', className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: 'Role', cell: (r) => ROLE_LABEL[r.role] ?? r.role },
    { header: 'Organization', className: 'wrap', cell: (r) => r.organization_name ?? <span className="cell-muted">N/A</span> },
    { header: 'Status', cell: (r) => (r.verified ? <span className="badge badge--brand">Verified</span> : <span className="badge">Not verified</span>) },
    { header: 'Joined', cell: (r) => formatResponseDate(r.createdAt) },
  ];
  return (
    <section className="mgmt">
      <MgmtHead title="All users" sub="Every account on Survey Bird, newest first." actions={<RefreshButton onClick={list.refresh} busy={list.loading} />} />
      <UserListPanel list={list} page={page} info={data} rows={data?.users} columns={columns}
        label="Users" searchLabel="Search users" placeholder="Search users"
        empty={<p>No user has signed up yet.</p>}
      />
    </section>
  );
}
