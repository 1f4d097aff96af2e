import type { FieldUserAcrossRow } from '@survey-bird/contracts';
import { api } from '../../api';
import { formatNaira } from '../../ui/format';
import { EmailText, type Column } from './DataTable';
import { MgmtHead, RefreshButton } from './Layout';
import { serialNumber } from './paging';
import { UserListPanel } from './UserListPanel';
import { usePagedList } from './usePagedList';

/** Field users across organizations (GET /field-user/all): one row per survey invitation. */
export function MasterAdminFieldUsersPage() {
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('allFieldUsers', { query: { page, searchQuery }, signal }));
  const data = list.data;
  const page = data?.page ?? list.page;
  const columns: Column<FieldUserAcrossRow>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Full Name', className: 'wrap wrap--name', cell: (r) => r.fullName },
    { header: 'Email Address', className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: 'Phone Number', cell: (r) => r.phoneNumber },
    { header: 'Organization', className: 'wrap', cell: (r) => r.organization_name },
    { header: 'Survey', className: 'wrap', cell: (r) => r.surveyTitle },
    { header: 'Responses', className: 'num', cell: (r) => r.responses.toLocaleString('en-NG') },
    { header: 'Outstanding', className: 'num', cell: (r) => formatNaira(r.outstanding) },
  ];
  return (
    <section className="mgmt">
      <MgmtHead title="All Field Users" sub="Field users of every organization, one row per survey they were invited to." actions={<RefreshButton onClick={list.refresh} busy={list.loading} />} />
      <UserListPanel list={list} page={page} info={data} rows={data?.fieldUsers} columns={columns}
        label="Field users" searchLabel="Search field users" placeholder="Search by name, e-mail, phone, organization or survey"
        empty={<p>No field user has been invited yet.</p>}
      />
    </section>
  );
}
