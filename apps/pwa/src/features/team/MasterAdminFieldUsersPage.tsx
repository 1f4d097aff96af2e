import type { FieldUserAcrossRow } from '@survey-bird/contracts';
import { api } from '../../api';
import { formatNaira, formatNumber } from '../../ui/format';
import { EmailText, type Column } from './DataTable';
import { MgmtHead, RefreshButton } from './Layout';
import { serialNumber } from './paging';
import { UserListPanel } from './UserListPanel';
import { usePagedList } from './usePagedList';
import { useT } from '../../lib/i18n';

/** Field users across organizations (GET /field-user/all): one row per survey invitation. */
export function MasterAdminFieldUsersPage() {
  const t = useT();
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('allFieldUsers', { query: { page, searchQuery }, signal }));
  const data = list.data;
  const page = data?.page ?? list.page;
  const columns: Column<FieldUserAcrossRow>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: t('office.team.fullName'), className: 'wrap wrap--name', cell: (r) => r.fullName },
    { header: t('office.team.email'), className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: t('office.team.phone'), cell: (r) => r.phoneNumber },
    { header: t('nav.organization'), className: 'wrap', cell: (r) => r.organization_name },
    { header: t('office.survey'), className: 'wrap', cell: (r) => r.surveyTitle },
    { header: t('office.responses.title'), className: 'num', cell: (r) => formatNumber(r.responses) },
    { header: t('office.users.outstanding'), className: 'num', cell: (r) => formatNaira(r.outstanding) },
  ];
  return (
    <section className="mgmt">
      <MgmtHead title={t('nav.allFieldUsers')} sub={t('office.users.fieldUsersSub')} actions={<RefreshButton onClick={list.refresh} busy={list.loading} />} />
      <UserListPanel list={list} page={page} info={data} rows={data?.fieldUsers} columns={columns}
        label={t('nav.short.fieldUsers')} searchLabel={t('office.team.searchFieldUsers')} placeholder={t('office.users.searchAcross')}
        empty={<p>{t('office.users.noFieldUsers')}</p>}
      />
    </section>
  );
}
