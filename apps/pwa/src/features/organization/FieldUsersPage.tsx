import { DEFAULT_STALE_SYNC_DAYS, type FieldUser, type Survey } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../../api';
import { paths } from '../../routes/paths';
import { formatNaira } from '../../ui/format';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { AssignSupervisorModal } from '../team/AssignSupervisorModal';
import { withAssigned } from '../team/assigned';
import type { Column } from '../team/DataTable';
import { fieldUserColumns } from '../team/field-user-columns';
import { UserPlusIcon } from '../team/icons';
import { InviteMemberModal } from '../team/InviteMemberModal';
import { StaleSyncSetting } from '../team/StaleSyncSetting';
import { MgmtHead, NoActiveSurvey, RefreshButton, WithdrawButton } from '../team/Layout';
import { UserListPanel } from '../team/UserListPanel';
import { usePagedList } from '../team/usePagedList';

/** Spec screen 5: the active survey's field users, what each is owed, and their supervisors. */
export function FieldUsersPage() {
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading="Manage Field Users" loading={loading}>
        <p className="empty-note__title">You have no survey yet</p>
        <p>Field users are invited to a survey. Create your first survey, then invite field users to it.</p>
        <Link to={paths.orgCreateSurvey} className="btn btn--primary">Create new survey</Link>
      </NoActiveSurvey>
    );
  }
  return <SurveyFieldUsers key={survey._id} survey={survey} />;
}

function SurveyFieldUsers({ survey }: { survey: Survey }) {
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('fieldUsers', { params: { surveyId: survey._id }, query: { page, searchQuery }, signal }));
  const [inviting, setInviting] = useState(false);
  const [assigning, setAssigning] = useState<FieldUser | null>(null);
  const data = list.data;
  const page = data?.page ?? list.page;
  const staleSyncDays = data?.staleSyncDays ?? DEFAULT_STALE_SYNC_DAYS;

  const columns: Column<FieldUser>[] = [
    ...fieldUserColumns(page, staleSyncDays),
    {
      header: 'Svp. name',
      className: 'wrap',
      cell: (r) => r.supervisorName ?? <button type="button" className="cell-link" onClick={() => setAssigning(r)}>Click to assign a supervisor</button>,
    },
    { header: 'Access', className: 'shrink', cell: (r) => <WithdrawButton name={r.fullName} surveyId={survey._id} surveyTitle={survey.title} memberId={r._id} onWithdrawn={list.refresh} /> },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title={`Manage ${survey.title} Field Users`}
        actions={
          <>
            <ActiveSurveyButton />
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> Invite field user</button>
          </>
        }
      />
      {data && <StaleSyncSetting days={staleSyncDays} onSaved={list.refresh} />}
      <UserListPanel list={list} page={page} info={data} rows={data?.fieldUsers} columns={columns}
        label="Field users" searchLabel="Search field users" placeholder="Search field users"
        empty={
          <div className="empty-note">
            <p className="empty-note__title">No field user yet</p>
            <p>Invite your first field user to {survey.title}; they get an e-mail to set up their account.</p>
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> Invite field user</button>
          </div>
        }
      >
        <span className="total-due">Total Due <strong>{formatNaira(data?.totalDue ?? 0)}</strong></span>
      </UserListPanel>
      <InviteMemberModal kind="fieldUser" surveyId={survey._id} surveyTitle={survey.title} open={inviting} onClose={() => setInviting(false)} onInvited={list.refresh} />
      {assigning && (
        <AssignSupervisorModal
          surveyId={survey._id}
          fieldUser={assigning}
          onClose={() => setAssigning(null)}
          onAssigned={(row) => list.setData((d) => (d ? { ...d, fieldUsers: withAssigned(d.fieldUsers, row) } : d))}
        />
      )}
    </section>
  );
}
