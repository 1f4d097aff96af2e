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
import { useT } from '../../lib/i18n';

/** Spec screen 7: the active survey's supervisors and what their field users are still owed. */
export function SupervisorsPage() {
  const t = useT();
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading={t('nav.manageSupervisors')} loading={loading}>
        <p className="empty-note__title">{t('office.team.noSurveyYou')}</p>
        <p>{t('office.team.supervisorsInvitedToSurvey')}</p>
        <Link to={paths.orgCreateSurvey} className="btn btn--primary">{t('office.team.createNewSurvey')}</Link>
      </NoActiveSurvey>
    );
  }
  return <SurveySupervisors key={survey._id} survey={survey} />;
}

function SurveySupervisors({ survey }: { survey: Survey }) {
  const t = useT();
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('supervisors', { params: { surveyId: survey._id }, query: { page, searchQuery }, signal }));
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<Supervisor | null>(null);
  const [uploading, setUploading] = useState(false);
  const data = list.data;
  const page = data?.page ?? list.page;

  const columns: Column<Supervisor>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: t('office.team.fullName'), className: 'wrap wrap--name', cell: (r) => r.fullName },
    { header: t('office.team.phone'), cell: (r) => r.phoneNumber },
    { header: t('office.team.email'), className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: t('office.payout.bank'), className: 'wrap', cell: (r) => r.bank || <span className="cell-muted">{t('common.na')}</span> },
    { header: t('office.payout.accountNumber'), cell: (r) => r.accountNumber },
    { header: t('office.team.accountName'), className: 'wrap', cell: (r) => r.accountName },
    { header: t('office.team.svp'), className: 'num', cell: (r) => formatNaira(r.outstanding) },
    { header: t('office.team.edit'), className: 'shrink', cell: (r) => <button type="button" className="cell-link" onClick={() => setEditing(r)} aria-label={t('office.team.editName', { name: r.fullName })}>{t('office.team.edit')}</button> },
    { header: t('office.team.access'), className: 'shrink', cell: (r) => <WithdrawButton name={r.fullName} surveyId={survey._id} surveyTitle={survey.title} memberId={r._id} onWithdrawn={list.refresh} /> },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title={t('office.team.manageSupervisorsOf', { survey: survey.title })}
        actions={
          <>
            <ActiveSurveyButton />
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            <button type="button" className="btn btn--ghost" onClick={() => setUploading(true)}>{t('office.team.uploadFile')}</button>
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> {t('office.team.inviteSupervisor')}</button>
          </>
        }
      />
      <UserListPanel list={list} page={page} info={data} rows={data?.supervisors} columns={columns}
        label={t('nav.short.supervisors')} searchLabel={t('office.team.searchSupervisors')} placeholder={t('office.team.searchSupervisors')}
        empty={
          <div className="empty-note">
            <p className="empty-note__title">{t('office.team.noSupervisor')}</p>
            <p>{t('office.team.inviteFirstSupervisor', { survey: survey.title })}</p>
            <button type="button" className="btn btn--primary" onClick={() => setInviting(true)}><UserPlusIcon /> {t('office.team.inviteSupervisor')}</button>
          </div>
        }
      />
      <InviteMemberModal kind="supervisor" surveyId={survey._id} surveyTitle={survey.title} open={inviting} onClose={() => setInviting(false)} onInvited={list.refresh} />
      {editing && <EditMemberModal surveyId={survey._id} member={editing} onClose={() => setEditing(null)} onSaved={list.refresh} />}
      {uploading && <BulkInviteModal kind="supervisor" surveyId={survey._id} surveyTitle={survey.title} onClose={() => setUploading(false)} onInvited={list.refresh} />}
    </section>
  );
}
