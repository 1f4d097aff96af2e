import { DEFAULT_STALE_SYNC_DAYS, type Survey } from '@survey-bird/contracts';
import { api } from '../../api';
import { formatNaira } from '../../ui/format';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { fieldUserColumns } from './field-user-columns';
import { MgmtHead, NoActiveSurvey, RefreshButton } from './Layout';
import { UserListPanel } from './UserListPanel';
import { usePagedList } from './usePagedList';
import { useT } from '../../lib/i18n';

/** Spec screen 10: the supervisor's own field users on the active survey, read-only. */
export function SupervisorFieldUsersPage() {
  const t = useT();
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading={t('nav.manageFieldUsers')} loading={loading}>
        <p className="empty-note__title">{t('office.payout.noSurvey')}</p>
        <p>{t('office.team.supervisorNoSurvey')}</p>
      </NoActiveSurvey>
    );
  }
  return <MyFieldUsers key={survey._id} survey={survey} />;
}

function MyFieldUsers({ survey }: { survey: Survey }) {
  const t = useT();
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('supervisorFieldUsers', { params: { surveyId: survey._id }, query: { page, searchQuery }, signal }));
  const data = list.data;
  const page = data?.page ?? list.page;
  const staleSyncDays = data?.staleSyncDays ?? DEFAULT_STALE_SYNC_DAYS;
  const columns = fieldUserColumns(page, staleSyncDays);

  return (
    <section className="mgmt">
      <MgmtHead
        title={t('office.team.manageFieldUsersOf', { survey: survey.title })}
        sub={t('office.team.supervisorSub', { count: staleSyncDays })}
        actions={
          <>
            <ActiveSurveyButton />
            <RefreshButton onClick={list.refresh} busy={list.loading} />
          </>
        }
      />
      <UserListPanel list={list} page={page} info={data} rows={data?.fieldUsers} columns={columns}
        label={t('office.team.yourFieldUsers')} searchLabel={t('office.team.searchFieldUsers')} placeholder={t('office.team.searchFieldUsers')}
        empty={<p>{t('office.team.noneAssigned', { survey: survey.title })}</p>}
      >
        <span className="total-due">{t('office.team.totalDue')} <strong>{formatNaira(data?.totalDue ?? 0)}</strong></span>
      </UserListPanel>
    </section>
  );
}
