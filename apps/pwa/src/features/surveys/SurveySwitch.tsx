import { lazy, Suspense, useState } from 'react';
import { ChevronDownIcon, SurveysIcon } from '../../ui/icons';
import { useActiveSurvey } from './active-survey';
import './surveys.css';
import { useT } from '../../lib/i18n';

// The picker (and its paged list) downloads only when the user opens it.
const SurveyPicker = lazy(() => import('./SurveyPicker').then((m) => ({ default: m.SurveyPicker })));

/**
 * Which survey the form shows, for a field user invited to more than one. Online it opens the
 * survey picker (spec screen 2); offline the phone's copies are listed in a native select.
 */
export function SurveySwitch({ online }: { online: boolean }) {
  const t = useT();
  const { survey, surveys, route, totalCount, setActive } = useActiveSurvey();
  const [open, setOpen] = useState(false);
  if (!route || !survey || Math.max(totalCount, surveys.length) < 2) return null;
  if (!online) {
    return (
      <label className="fu__offline-pick">
        <span>{t('survey.label')}</span>
        <select value={survey._id} onChange={(e) => setActive(surveys.find((s) => s._id === e.currentTarget.value) ?? null)}>
          {surveys.map((s) => <option key={s._id} value={s._id}>{s.title}</option>)}
        </select>
      </label>
    );
  }
  return (
    <>
      <button type="button" className="survey-switch fu__picker" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <SurveysIcon size={18} />
        <span className="survey-switch__text">
          <span className="survey-switch__label">{t('survey.active')}</span>
          <span className="survey-switch__title">{survey.title}</span>
        </span>
        <ChevronDownIcon size={18} />
      </button>
      {open && (
        <Suspense fallback={null}>
          <SurveyPicker route={route} activeId={survey._id} total={totalCount} onChoose={setActive} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
