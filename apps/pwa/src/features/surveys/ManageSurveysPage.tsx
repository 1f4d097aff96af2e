import type { Survey } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../../api';
import { paths } from '../../lib/paths';
import { PlusIcon, SurveysIcon } from '../../ui/icons';
import { useActiveSurvey } from './active-survey';
import { createdLabel } from './format';
import { MgmtHead } from '../team/Layout';
import { Pager, SearchBox } from '../team/ListControls';
import { usePagedList } from '../team/usePagedList';
import { SurveyDetailsModal } from './SurveyDetailsModal';
import { SurveySettingsModal } from './SurveySettingsModal';
import { useOfficeMay } from '../accounts/session';

/** Spec screen 3: the organization's surveys, newest first; choosing one makes it the active survey. */
export function ManageSurveysPage() {
  const mayCreate = useOfficeMay('createSurvey');
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('organizationSurveys', { query: { page, searchQuery }, signal }));
  const { survey: active, setActive } = useActiveSurvey();
  const data = list.data;
  const surveys = data?.survey ?? [];
  const page = data?.page ?? list.page;
  const [viewing, setViewing] = useState<Survey | null>(null);
  const [setting, setSetting] = useState<Survey | null>(null);

  return (
    <section className="mgmt">
      <MgmtHead
        title="Manage Survey"
        sub="Below are a list of recent forms you have created."
        actions={mayCreate && <Link to={paths.orgCreateSurvey} className="btn btn--primary"><PlusIcon size={18} /> Create new survey</Link>}
      />
      <div className="mgmt-panel">
        <div className="toolbar">
          <SearchBox value={list.search} onChange={list.setSearch} placeholder="Search your surveys" label="Search surveys" />
        </div>
        {list.loading ? (
          <ul className="survey-list" aria-busy="true">
            {[0, 1, 2, 3].map((i) => (
              <li key={i} className="survey-row" aria-hidden="true">
                <span className="survey-row__icon" />
                <span className="survey-row__body"><span className="skeleton-bar" style={{ width: '45%' }} /><span className="skeleton-bar" style={{ width: '28%' }} /></span>
              </li>
            ))}
          </ul>
        ) : surveys.length === 0 ? (
          <div className="empty-note">
            {list.query ? (
              <p>No survey found with "{list.query}" keywords</p>
            ) : (
              <p>You have not added any form. <Link to={paths.orgCreateSurvey}>Click here</Link> to add your first form</p>
            )}
          </div>
        ) : (
          <ul className="survey-list">
            {surveys.map((s) => (
              <SurveyRow key={s._id} survey={s} active={s._id === active?._id} onChoose={() => setActive(s)} onOpen={() => setViewing(s)} onSettings={() => setSetting(s)} />
            ))}
          </ul>
        )}
        <Pager colon page={page} count={surveys.length} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage} />
      </div>
      <SurveyDetailsModal
        survey={setting ? null : viewing}
        onClose={() => setViewing(null)}
        onSettings={setSetting}
      />
      <SurveySettingsModal
        survey={setting}
        onClose={() => setSetting(null)}
        onChanged={(changed) => {
          setSetting(changed);
          if (viewing?._id === changed._id) setViewing(changed);
          list.refresh();
          if (changed._id === active?._id) setActive(changed);
        }}
      />
    </section>
  );
}

function SurveyRow({ survey, active, onChoose, onOpen, onSettings }: { survey: Survey; active: boolean; onChoose: () => void; onOpen: () => void; onSettings: () => void }) {
  const count = survey.questions.length;
  const maySet = useOfficeMay('surveySettings');
  return (
    <li className={`survey-row${active ? ' is-active' : ''}${survey.closed ? ' is-closed' : ''}`}>
      <span className="survey-row__icon"><SurveysIcon size={20} /></span>
      <div className="survey-row__body">
        <p className="survey-row__title"><button type="button" className="survey-row__open" onClick={onOpen}>{survey.title}</button></p>
        <p className="survey-row__meta">
          {createdLabel(survey.createdAt)} · {count === 1 ? '1 question' : `${count} questions`}
          {(survey.version ?? 1) > 1 && ` · version ${survey.version}`}
          {survey.closed && <> · <span className="badge">Closed</span></>}
        </p>
      </div>
      <div className="survey-row__actions">
        {maySet && <button type="button" className="btn btn--ghost btn--sm" onClick={onSettings} aria-label={`Settings of ${survey.title}`}>Settings</button>}
        {active ? (
          <span className="badge badge--brand">Active survey</span>
        ) : (
          <button type="button" className="btn btn--ghost btn--sm" onClick={onChoose} aria-label={`Make ${survey.title} the active survey`}>Make active</button>
        )}
      </div>
    </li>
  );
}
