import { useState } from 'react';
import { greeting } from '../../ui/format';
import { InsightHeader } from './InsightHeader';
import { NoSurvey } from './NoSurvey';
import { ResponsesTable } from './ResponsesTable';
import { StatCards } from './StatCards';
import { useCards, useGreetingName } from './use-insight';
import './insight.css';
import { useActiveSurvey } from '../surveys/active-survey';

/** Spec screen 9: the supervisor's dashboard, over the field users assigned to them. */
export function SupervisorInsightPage() {
  const { survey, loading: surveysLoading } = useActiveSurvey();
  const name = useGreetingName('supervisor');
  const [reload, setReload] = useState(0);
  const cards = useCards('supervisorTopPerformer', survey?._id ?? null, reload);

  return (
    <div className="insight">
      <InsightHeader
        greeting={greeting(new Date())}
        name={name && `Supervisor ${name}`}
        sub={survey ? <>Your field users on <strong>{survey.title}</strong>.</> : surveysLoading ? 'Loading your surveys…' : 'No survey has been assigned to you yet.'}
      />
      {!survey && !surveysLoading ? (
        <NoSurvey>
          <h2 className="insight-panel__title">No survey to supervise yet</h2>
          <p className="insight-panel__sub">When an organization invites you to a survey, your field users' responses appear here.</p>
        </NoSurvey>
      ) : (
        <>
          <StatCards cards={cards.data} loading={cards.loading || !survey} scope="team" />
          {survey && (
            <ResponsesTable key={survey._id} survey={survey} route="supervisorResponses" exportRoute="supervisorExport" reload={reload} onRefresh={() => setReload((n) => n + 1)} />
          )}
        </>
      )}
    </div>
  );
}
