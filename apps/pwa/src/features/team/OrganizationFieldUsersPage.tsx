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
import { useT } from '../../lib/i18n';

/** Spec screen 5: the active survey's field users, what each is owed, and their supervisors. */
export function OrganizationFieldUsersPage() {
  const t = useT();
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading={t('nav.manageFieldUsers')} loading={loading}>
        <p className="empty-note__title">{t('office.team.noSurveyYou')}</p>
        <p>{t('office.team.fieldUsersInvitedToSurvey')}</p>
        <Link to={paths.orgCreateSurvey} className="btn btn--primary">{t('office.team.createNewSurvey')}</Link>
      </NoActiveSurvey>
    );
  }
  return <SurveyFieldUsers key={survey._id} survey={survey} />;
}

function SurveyFieldUsers({ survey }: { survey: Survey }) {
  const t = useT();
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
      header: t('office.team.svpName'),
      className: 'wrap',
      cell: (r) => r.supervisorName ?? <button type="button" className="cell-link" onClick={() => setAssigning(r)}>{t('office.team.clickToAssign')}</button>,
    },
    { header: t('office.team.edit'), className: 'shrink', cell: (r) => <button type="button" className="cell-link" onClick={() => setEditing(r)} aria-label={t('office.team.editName', { name: r.fullName })}>{t('office.team.edit')}</button> },
    { header: t('office.team.access'), className: 'shrink', cell: (r) => <WithdrawButton name={r.fullName} surveyId={survey._id} surveyTitle={survey.title} memberId={r._id} onWithdrawn={list.refresh} /> },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title={t('office.team.manageFieldUsersOf', { survey: survey.title })}
        actions={
          <>
            <ActiveSurveyButton />
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            <button type="button" className="btn btn--ghost" onClick={() => setUploading(true)}>{t('office.team.uploadFile')}</button>
            <button type="button" className="btn btn--ghost" onClick={() => setCopying(true)}>{t('office.team.copyTeam')}</button>
            <Link to={paths.orgDeactivated} className="btn btn--ghost">{t('office.team.deactivated')}</Link>
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> {t('office.team.inviteFieldUser')}</button>
          </>
        }
      />
      {data && <StaleSyncSetting days={staleSyncDays} onSaved={list.refresh} />}
      <UserListPanel list={list} page={page} info={data} rows={data?.fieldUsers} columns={columns}
        label={t('nav.short.fieldUsers')} searchLabel={t('office.team.searchFieldUsers')} placeholder={t('office.team.searchFieldUsers')}
        empty={
          <div className="empty-note">
            <p className="empty-note__title">{t('office.team.noFieldUser')}</p>
            <p>{t('office.team.inviteFirstFieldUser', { survey: survey.title })}</p>
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> {t('office.team.inviteFieldUser')}</button>
          </div>
        }
      >
        <span className="total-due">{t('office.team.totalDue')} <strong>{formatNaira(data?.totalDue ?? 0)}</strong></span>
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
