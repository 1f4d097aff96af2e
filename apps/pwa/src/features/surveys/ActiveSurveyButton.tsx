import { useState } from 'react';
import { ChevronDownIcon, SurveysIcon } from '../../ui/icons';
import { useActiveSurvey } from './active-survey';
import { SurveyPicker } from './SurveyPicker';
import './surveys.css';
import { useT } from '../../lib/i18n';

/**
 * The active survey's title as a button; it opens the survey picker. Put it in a screen's header:
 * `<ActiveSurveyButton />`. It renders nothing for roles without surveys.
 */
export function ActiveSurveyButton({ className = '' }: { className?: string }) {
  const t = useT();
  const { survey, loading, route, totalCount, setActive } = useActiveSurvey();
  const [open, setOpen] = useState(false);
  if (!route) return null;
  const title = survey?.title ?? (loading ? t('survey.loading') : t('survey.none'));
  return (
    <>
      <button type="button" className={`survey-switch ${className}`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <SurveysIcon size={18} />
        <span className="survey-switch__text">
          <span className="survey-switch__label">{t('survey.active')}</span>
          <span className="survey-switch__title">{title}</span>
        </span>
        <ChevronDownIcon size={18} />
      </button>
      {open && <SurveyPicker route={route} activeId={survey?._id} total={totalCount} onChoose={setActive} onClose={() => setOpen(false)} />}
    </>
  );
}
