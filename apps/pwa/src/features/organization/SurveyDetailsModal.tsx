import { QuestionType, type PhotoQuality, type Survey, type SurveySettingsBody, type SurveyVersion } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { navigateTo } from '../../routes/navigate';
import { paths } from '../../routes/paths';
import { Modal } from '../../ui/Modal';
import { toast } from '../../ui/toast-store';
import { createdLabel } from '../surveys/format';
import { setEditTarget } from './edit-target';

/** Options listed in full up to this many; a longer list shows its count (a large dataset never ships its options). */
const OPTIONS_SHOWN = 12;

function optionsText(q: Survey['questions'][number]): string | null {
  if (q.type === QuestionType.largeSelect) return `${(q.optionCount ?? q.options.length).toLocaleString('en-NG')} options`;
  if (q.options.length === 0) return null;
  if (q.options.length <= OPTIONS_SHOWN) return q.options.join(', ');
  return `${q.options.slice(0, OPTIONS_SHOWN).join(', ')} and ${q.options.length - OPTIONS_SHOWN} more (${q.options.length} options)`;
}

const dateOf = (iso: string) => new Date(iso).toLocaleDateString('en-NG', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * A published survey: when it was created, each question's type, compulsion and options; Edit (the
 * builder, publishing the next version), its versions, Close / Reopen and the photo
 * quality (the phones use it from their next survey refresh).
 */
export function SurveyDetailsModal({ survey, onClose, onChanged }: { survey: Survey | null; onClose: () => void; onChanged?: (survey: Survey) => void }) {
  const [versions, setVersions] = useState<{ list: SurveyVersion[]; total: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = survey?._id;
  useEffect(() => {
    setVersions(null);
    if (!id) return;
    const ctrl = new AbortController();
    api.call('surveyVersions', { params: { id }, query: { page: 1, searchQuery: '' }, signal: ctrl.signal })
      .then((r) => setVersions({ list: r.versions, total: r.totalCount }))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [id, survey?.version]);

  if (!survey) return null;
  const closed = survey.closed === true;

  async function save(body: SurveySettingsBody, done: string) {
    if (!survey || busy) return;
    setBusy(true);
    try {
      const reply = await api.call('surveySettings', { params: { id: survey._id }, body });
      toast.success(done);
      onChanged?.({ ...survey, closed: reply.closed, closedAt: reply.closed ? (survey.closedAt ?? new Date().toISOString()) : null, photoQuality: reply.photoQuality });
    } catch {
      // The API client showed the reason.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open title={survey.title} onClose={onClose} className="modal--form">
      <div className="survey-view">
        <p className="survey-view__meta">
          {createdLabel(survey.createdAt)} · {survey.questions.length === 1 ? '1 question' : `${survey.questions.length} questions`} · Version {survey.version ?? 1}
          {closed && <span className="badge survey-view__closed">Closed{survey.closedAt ? ` ${dateOf(survey.closedAt)}` : ''}</span>}
        </p>
        <div className="survey-view__actions">
          <button type="button" className="btn btn--primary btn--sm" onClick={() => {
            setEditTarget(survey);
            navigateTo(paths.orgEditSurvey.replace('$surveyId', encodeURIComponent(survey._id)));
          }}>Edit</button>
          {closed ? (
            <button type="button" className="btn btn--ghost btn--sm" disabled={busy} onClick={() => void save({ closed: false }, 'Survey reopened')}>Reopen</button>
          ) : (
            <button type="button" className="btn btn--danger-outline btn--sm" disabled={busy} onClick={() => void save({ closed: true }, 'Survey closed: field users can no longer start new responses')}>Close survey</button>
          )}
        </div>
        <label className="survey-view__setting">
          Photo quality
          <select value={survey.photoQuality ?? 'standard'} disabled={busy} onChange={(e) => void save({ photoQuality: e.target.value as PhotoQuality }, 'Photo quality saved')}>
            <option value="standard">Standard (smaller, faster on 2G)</option>
            <option value="high">High (more detail)</option>
          </select>
        </label>
        {closed && <p className="survey-view__note">Closed: field users see it greyed out and cannot start new responses. Responses made on a phone before the close are still accepted when it syncs.</p>}
        {survey.description && <p className="survey-view__desc">{survey.description}</p>}
        <ol className="survey-view__questions">
          {survey.questions.map((q) => {
            const options = optionsText(q);
            return (
              <li key={q.id ?? q.text} className="survey-view__q">
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
        <h3 className="survey-view__heading">Versions</h3>
        {versions === null ? (
          <p className="survey-view__meta">Loading versions…</p>
        ) : (
          <ol className="survey-view__versions" aria-label="Versions">
            {versions.list.map((v) => (
              <li key={v.version}>
                <strong>Version {v.version}</strong> · {dateOf(v.createdAt)} · {v.questions.length === 1 ? '1 question' : `${v.questions.length} questions`}
                {v.version === (survey.version ?? 1) && <span className="badge badge--brand">Current</span>}
              </li>
            ))}
            {versions.total > versions.list.length && <li>and {versions.total - versions.list.length} older versions</li>}
          </ol>
        )}
      </div>
    </Modal>
  );
}
