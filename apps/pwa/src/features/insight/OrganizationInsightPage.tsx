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
import { useT } from '../../lib/i18n';

/** Spec screen 1: the organization's dashboard for its active survey. */
export function OrganizationInsightPage() {
  const t = useT();
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
        sub={survey ? <>{t('office.insight.howBefore')}<strong>{survey.title}</strong>{t('office.insight.howAfter')} <Link to={paths.orgMap}>{t('office.insight.seeOnMap')}</Link></> : surveysLoading ? t('office.insight.loadingSurveys') : t('office.insight.createToStart')}
      />
      {!survey && !surveysLoading ? (
        <NoSurvey>
          <h2 className="insight-panel__title">{t('office.insight.noSurveyTitle')}</h2>
          <p className="insight-panel__sub">{t('office.insight.noSurveyBody')}</p>
          <Link to={paths.orgCreateSurvey} className="btn btn--primary">{t('office.insight.createSurvey')}</Link>
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
