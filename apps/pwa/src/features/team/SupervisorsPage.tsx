import type { Supervisor, Survey } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../../api';
import { paths } from '../../lib/paths';
import { formatNaira } from '../../ui/format';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { EmailText, type Column } from './DataTable';
import { UserPlusIcon } from './icons';
import { InviteMemberModal } from './InviteMemberModal';
import { BulkInviteModal } from './BulkInviteModal';
import { EditMemberModal } from './EditMemberModal';
import { MgmtHead, NoActiveSurvey, RefreshButton, WithdrawButton } from './Layout';
import { serialNumber } from './paging';
import { UserListPanel } from './UserListPanel';
import { usePagedList } from './usePagedList';

/** Spec screen 7: the active survey's supervisors and what their field users are still owed. */
export function SupervisorsPage() {
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading="Manage Supervisors" loading={loading}>
        <p className="empty-note__title">You have no survey yet</p>
        <p>Supervisors are invited to a survey. Create your first survey, then invite supervisors to it.</p>
        <Link to={paths.orgCreateSurvey} className="btn btn--primary">Create new survey</Link>
      </NoActiveSurvey>
    );
  }
  return <SurveySupervisors key={survey._id} survey={survey} />;
}

function SurveySupervisors({ survey }: { survey: Survey }) {
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('supervisors', { params: { surveyId: survey._id }, query: { page, searchQuery }, signal }));
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<Supervisor | null>(null);
  const [uploading, setUploading] = useState(false);
  const data = list.data;
  const page = data?.page ?? list.page;

  const columns: Column<Supervisor>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Full Name', className: 'wrap wrap--name', cell: (r) => r.fullName },
    { header: 'Phone Number', cell: (r) => r.phoneNumber },
    { header: 'Email Address', className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: 'Bank', className: 'wrap', cell: (r) => r.bank || <span className="cell-muted">N/A</span> },
    { header: 'Account Number', cell: (r) => r.accountNumber },
    { header: 'Account Name', className: 'wrap', cell: (r) => r.accountName },
    { header: 'Svp.', className: 'num', cell: (r) => formatNaira(r.outstanding) },
    { header: 'Edit', className: 'shrink', cell: (r) => <button type="button" className="cell-link" onClick={() => setEditing(r)} aria-label={`Edit ${r.fullName}`}>Edit</button> },
    { header: 'Access', className: 'shrink', cell: (r) => <WithdrawButton name={r.fullName} surveyId={survey._id} surveyTitle={survey.title} memberId={r._id} onWithdrawn={list.refresh} /> },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title={`Manage ${survey.title} Supervisors`}
        actions={
          <>
            <ActiveSurveyButton />
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            <button type="button" className="btn btn--ghost" onClick={() => setUploading(true)}>Upload file</button>
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> Invite supervisor</button>
          </>
        }
      />
      <UserListPanel list={list} page={page} info={data} rows={data?.supervisors} columns={columns}
        label="Supervisors" searchLabel="Search supervisors" placeholder="Search supervisors"
        empty={
          <div className="empty-note">
            <p className="empty-note__title">No supervisor yet</p>
            <p>Invite your first supervisor to {survey.title}, then assign field users to them from Manage Field Users.</p>
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> Invite supervisor</button>
          </div>
        }
      />
      <InviteMemberModal kind="supervisor" surveyId={survey._id} surveyTitle={survey.title} open={inviting} onClose={() => setInviting(false)} onInvited={list.refresh} />
      {editing && <EditMemberModal surveyId={survey._id} member={editing} onClose={() => setEditing(null)} onSaved={list.refresh} />}
      {uploading && <BulkInviteModal kind="supervisor" surveyId={survey._id} surveyTitle={survey.title} onClose={() => setUploading(false)} onInvited={list.refresh} />}
    </section>
  );
}
