import { DEFAULT_STALE_SYNC_DAYS, type Survey } from '@survey-bird/contracts';
import { api } from '../../api';
import { formatNaira } from '../../ui/format';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { fieldUserColumns } from './field-user-columns';
import { MgmtHead, NoActiveSurvey, RefreshButton } from './Layout';
import { UserListPanel } from './UserListPanel';
import { usePagedList } from './usePagedList';

/** Spec screen 10: the supervisor's own field users on the active survey, read-only. */
export function SupervisorFieldUsersPage() {
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading="Manage Field Users" loading={loading}>
        <p className="empty-note__title">No survey yet</p>
        <p>You have not been added to a survey yet. Once an organization invites you as a supervisor, its field users show here.</p>
      </NoActiveSurvey>
    );
  }
  return <MyFieldUsers key={survey._id} survey={survey} />;
}

function MyFieldUsers({ survey }: { survey: Survey }) {
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('supervisorFieldUsers', { params: { surveyId: survey._id }, query: { page, searchQuery }, signal }));
  const data = list.data;
  const page = data?.page ?? list.page;
  const staleSyncDays = data?.staleSyncDays ?? DEFAULT_STALE_SYNC_DAYS;
  const columns = fieldUserColumns(page, staleSyncDays);

  return (
    <section className="mgmt">
      <MgmtHead
        title={`Manage ${survey.title} Field Users`}
        sub={`The field users assigned to you on this survey. Highlighted: work on the phone and no sync for ${staleSyncDays} day${staleSyncDays === 1 ? '' : 's'} (your organization's setting).`}
        actions={
          <>
            <ActiveSurveyButton />
            <RefreshButton onClick={list.refresh} busy={list.loading} />
          </>
        }
      />
      <UserListPanel list={list} page={page} info={data} rows={data?.fieldUsers} columns={columns}
        label="Your field users" searchLabel="Search field users" placeholder="Search field users"
        empty={<p>No field user has been assigned to you yet for {survey.title} survey. Don't worry, you might get one soon.</p>}
      >
        <span className="total-due">Total Due <strong>{formatNaira(data?.totalDue ?? 0)}</strong></span>
      </UserListPanel>
    </section>
  );
}
