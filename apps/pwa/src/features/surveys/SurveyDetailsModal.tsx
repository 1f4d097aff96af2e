import { QuestionType, type Survey, type SurveyVersion } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { navigateTo } from '../../lib/navigate';
import { paths } from '../../lib/paths';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { saveBlob } from '../insight/download';
import { DownloadIcon } from '../insight/icons';
import { createdLabel } from './format';
import { nestingDepths } from './format';
import { setEditTarget } from './edit-target';
import { countOf } from '../../ui/format';
import { useOfficeMay } from '../accounts/session';

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
 * builder, publishing the next version), its versions, and Settings (SurveySettingsModal: pay after
 * review, flag thresholds, photo quality, Close / Reopen).
 */
export function SurveyDetailsModal({ survey, onClose, onSettings }: { survey: Survey | null; onClose: () => void; onSettings: (survey: Survey) => void }) {
  const mayEdit = useOfficeMay('updateSurvey');
  const maySet = useOfficeMay('surveySettings');
  const [versions, setVersions] = useState<{ list: SurveyVersion[]; total: number } | null>(null);
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
  const [downloading, setDownloading] = useState(false);

  if (!survey) return null;
  const closed = survey.closed === true;
  const depths = nestingDepths(survey.questions);

  /** The latest version as an XLSForm: for ODK or Kobo, or to edit in a spreadsheet and import again. */
  async function downloadXlsform(s: Survey) {
    setDownloading(true);
    try {
      saveBlob(await api.call('surveyXlsform', { params: { id: s._id } }), `${s.title}.xlsx`);
    } catch {
      // The API client showed the server's reason.
    } finally {
      setDownloading(false);
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
          {mayEdit && <button type="button" className="btn btn--primary btn--sm" onClick={() => {
            setEditTarget(survey);
            navigateTo(paths.orgEditSurvey.replace('$surveyId', encodeURIComponent(survey._id)));
          }}>Edit</button>}
          {maySet && <button type="button" className="btn btn--ghost btn--sm" onClick={() => onSettings(survey)}>Settings</button>}
          <button type="button" className={`btn btn--ghost btn--sm${downloading ? ' is-busy' : ''}`} aria-busy={downloading} disabled={downloading} onClick={() => void downloadXlsform(survey)}>
            {downloading ? <Spinner label="Preparing the XLSForm" /> : <DownloadIcon size={16} />} Download XLSForm
          </button>
        </div>
        {closed && <p className="survey-view__note">Closed: field users see it greyed out and cannot start new responses. Responses made on a phone before the close are still accepted when it syncs.</p>}
        {survey.description && <p className="survey-view__desc">{survey.description}</p>}
        <ol className="survey-view__questions">
          {survey.questions.map((q, i) => {
            const options = optionsText(q);
            const depth = Math.min(depths[i] ?? 0, 4);
            return (
              <li key={q.id ?? q.text} className="survey-view__q" style={depth > 0 ? { marginInlineStart: `${depth * 20}px` } : undefined}>
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
            {versions.total > versions.list.length && <li>and {countOf(versions.total - versions.list.length, 'older version')}</li>}
          </ol>
        )}
      </div>
    </Modal>
  );
}
