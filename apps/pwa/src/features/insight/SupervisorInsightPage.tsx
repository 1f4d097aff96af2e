import { useState } from 'react';
import { greeting } from '../../ui/format';
import { InsightHeader } from './InsightHeader';
import { NoSurvey } from './NoSurvey';
import { ResponsesTable } from './ResponsesTable';
import { StatCards } from './StatCards';
import { useCards, useGreetingName } from './use-insight';
import './insight.css';
import { useActiveSurvey } from '../surveys/active-survey';
import { useT } from '../../lib/i18n';

/** Spec screen 9: the supervisor's dashboard, over the field users assigned to them. */
export function SupervisorInsightPage() {
  const t = useT();
  const { survey, loading: surveysLoading } = useActiveSurvey();
  const name = useGreetingName('supervisor');
  const [reload, setReload] = useState(0);
  const cards = useCards('supervisorTopPerformer', survey?._id ?? null, reload);

  return (
    <div className="insight">
      <InsightHeader
        greeting={greeting(new Date())}
        name={name && t('office.insight.supervisorName', { name })}
        sub={survey ? <>{t('office.insight.yourFieldUsersOn')} <strong>{survey.title}</strong>.</> : surveysLoading ? t('office.insight.loadingSurveys') : t('office.insight.noneAssigned')}
      />
      {!survey && !surveysLoading ? (
        <NoSurvey>
          <h2 className="insight-panel__title">{t('office.insight.noSuperviseTitle')}</h2>
          <p className="insight-panel__sub">{t('office.insight.noSuperviseBody')}</p>
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
