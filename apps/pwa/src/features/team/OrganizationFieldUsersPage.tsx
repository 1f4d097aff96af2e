import { DEFAULT_STALE_SYNC_DAYS, type FieldUser, type Survey } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../../api';
import { paths } from '../../lib/paths';
import { formatNaira } from '../../ui/format';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { AssignSupervisorModal } from './AssignSupervisorModal';
import { BulkInviteModal } from './BulkInviteModal';
import { CopyTeamModal } from './CopyTeamModal';
import { EditMemberModal } from './EditMemberModal';
import { withAssigned } from './assigned';
import type { Column } from './DataTable';
import { fieldUserColumns } from './field-user-columns';
import { UserPlusIcon } from './icons';
import { InviteMemberModal } from './InviteMemberModal';
import { StaleSyncSetting } from './StaleSyncSetting';
import { MgmtHead, NoActiveSurvey, RefreshButton, WithdrawButton } from './Layout';
import { UserListPanel } from './UserListPanel';
import { usePagedList } from './usePagedList';

/** Spec screen 5: the active survey's field users, what each is owed, and their supervisors. */
export function OrganizationFieldUsersPage() {
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
  const [editing, setEditing] = useState<FieldUser | null>(null);
  const [uploading, setUploading] = useState(false);
  const [copying, setCopying] = useState(false);
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
    { header: 'Edit', className: 'shrink', cell: (r) => <button type="button" className="cell-link" onClick={() => setEditing(r)} aria-label={`Edit ${r.fullName}`}>Edit</button> },
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
            <button type="button" className="btn btn--ghost" onClick={() => setUploading(true)}>Upload file</button>
            <button type="button" className="btn btn--ghost" onClick={() => setCopying(true)}>Copy a team</button>
            <Link to={paths.orgDeactivated} className="btn btn--ghost">Deactivated people</Link>
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
      {editing && <EditMemberModal surveyId={survey._id} member={editing} onClose={() => setEditing(null)} onSaved={list.refresh} />}
      {copying && <CopyTeamModal surveyId={survey._id} surveyTitle={survey.title} onClose={() => setCopying(false)} onCopied={list.refresh} />}
      {uploading && <BulkInviteModal kind="fieldUser" surveyId={survey._id} surveyTitle={survey.title} onClose={() => setUploading(false)} onInvited={list.refresh} />}
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
