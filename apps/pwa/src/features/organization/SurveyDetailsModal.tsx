import { QuestionType, type Survey } from '@survey-bird/contracts';
import { Modal } from '../../ui/Modal';
import { createdLabel } from '../surveys/format';

/** Options listed in full up to this many; a longer list shows its count (a large dataset never ships its options). */
const OPTIONS_SHOWN = 12;

function optionsText(q: Survey['questions'][number]): string | null {
  if (q.type === QuestionType.largeSelect) return `${(q.optionCount ?? q.options.length).toLocaleString('en-NG')} options`;
  if (q.options.length === 0) return null;
  if (q.options.length <= OPTIONS_SHOWN) return q.options.join(', ');
  return `${q.options.slice(0, OPTIONS_SHOWN).join(', ')} and ${q.options.length - OPTIONS_SHOWN} more (${q.options.length} options)`;
}

/** A published survey, read-only: when it was created and each question's type, compulsion and options. */
export function SurveyDetailsModal({ survey, onClose }: { survey: Survey | null; onClose: () => void }) {
  if (!survey) return null;
  return (
    <Modal open title={survey.title} onClose={onClose} className="modal--form">
      <div className="survey-view">
        <p className="survey-view__meta">{createdLabel(survey.createdAt)} · {survey.questions.length === 1 ? '1 question' : `${survey.questions.length} questions`}</p>
        {survey.description && <p className="survey-view__desc">{survey.description}</p>}
        <ol className="survey-view__questions">
          {survey.questions.map((q) => {
            const options = optionsText(q);
            return (
              <li key={q.text} className="survey-view__q">
                <p className="survey-view__text">{q.text}</p>
                <p className="survey-view__facts">
                  <span className="badge">{q.type}</span>
                  {q.compulsory ? <span className="badge badge--brand">Compulsory</span> : <span className="survey-view__optional">Optional</span>}
                </p>
                {options && <p className="survey-view__options">{options}</p>}
              </li>
            );
          })}
        </ol>
      </div>
    </Modal>
  );
}
