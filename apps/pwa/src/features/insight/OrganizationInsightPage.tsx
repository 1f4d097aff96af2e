import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { paths } from '../../lib/paths';
import { greeting } from '../../ui/format';
import { CoverageChart } from './CoverageChart';
import { InsightHeader } from './InsightHeader';
import { NoSurvey } from './NoSurvey';
import { ResponsesTable } from './ResponsesTable';
import { StatCards } from './StatCards';
import { useCards, useGreetingName } from './use-insight';
import { WeeklyCharts } from './WeeklyCharts';
import './insight.css';
import { useActiveSurvey } from '../surveys/active-survey';

/** Spec screen 1: the organization's dashboard for its active survey. */
export function OrganizationInsightPage() {
  const { survey, loading: surveysLoading } = useActiveSurvey();
  const name = useGreetingName('organization');
  const [reload, setReload] = useState(0);
  const surveyId = survey?._id ?? null;
  const cards = useCards('organizationTopPerformer', surveyId, reload);
  const expected = survey?.expectedResponseCount ?? null;

  return (
    <div className="insight">
      <InsightHeader
        greeting={greeting(new Date())}
        name={name}
        sub={survey ? <>Here is how <strong>{survey.title}</strong> is doing. <Link to={paths.orgMap}>See it on the map</Link></> : surveysLoading ? 'Loading your surveys…' : 'Create a survey to start collecting responses.'}
      />
      {!survey && !surveysLoading ? (
        <NoSurvey>
          <h2 className="insight-panel__title">You have not created a survey yet</h2>
          <p className="insight-panel__sub">Once field users respond, their numbers, charts and answers appear here.</p>
          <Link to={paths.orgCreateSurvey} className="btn btn--primary">Create a survey</Link>
        </NoSurvey>
      ) : (
        <>
          <StatCards cards={cards.data} loading={cards.loading || !survey} expected={expected} />
          {survey && (
            <>
              <div className="insight-charts">
                <WeeklyCharts surveyId={survey._id} reload={reload} payAfterReview={survey.payAfterReview === true} />
                <CoverageChart responses={cards.data?.totalResponses ?? null} expected={expected} loading={cards.loading} />
              </div>
              <ResponsesTable key={survey._id} survey={survey} route="organizationResponses" exportRoute="organizationExport" reload={reload} onRefresh={() => setReload((n) => n + 1)} />
            </>
          )}
        </>
      )}
    </div>
  );
}
