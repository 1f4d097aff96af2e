import { QuestionType, STABLE_QUESTION_TYPES, type BackcheckOverviewReply, type BackcheckSettings, type Survey } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { formatResponseDate } from '../../ui/format';
import { saveBlob } from '../insight/download';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { DataTable, type Column } from '../team/DataTable';
import { MgmtHead, NoActiveSurvey, RefreshButton } from '../team/Layout';
import { Pager } from '../team/ListControls';
import { usePagedList } from '../team/usePagedList';
import './backchecks.css';

type Overview = BackcheckOverviewReply;
const pct = (v: number | null) => (v === null ? '—' : `${v}%`);
const REASON: Record<Overview['assignments'][number]['reason'], string> = { sample: 'Random', minimum: 'Weekly minimum', flagged: 'Flagged' };
const NUMERIC: string[] = [QuestionType.number, QuestionType.decimal, QuestionType.range];

/** The organization's Back-checks page for the active survey: settings, the form, and how the revisits compare. */
export function BackchecksPage() {
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading="Back-checks" loading={loading}>
        <p className="empty-note__title">No survey yet</p>
        <p>Back-checks revisit a survey's respondents: create a survey first.</p>
      </NoActiveSurvey>
    );
  }
  return <SurveyBackchecks key={survey._id} survey={survey} />;
}

function SurveyBackchecks({ survey }: { survey: Survey }) {
  const list = usePagedList(({ page, signal }) => api.call('surveyBackchecks', { params: { id: survey._id }, query: { page }, signal }));
  const data = list.data;
  const [exporting, setExporting] = useState(false);

  async function exportSheet() {
    setExporting(true);
    try {
      saveBlob(await api.call('backcheckExport', { params: { id: survey._id } }), `${survey.title} back-checks.xlsx`);
    } catch {
      // The API client has toasted the failure.
    } finally {
      setExporting(false);
    }
  }

  // The table pins its first column (S/N) and its second (the name), so a phone keeps them in sight.
  const sn = { header: 'S/N', cell: (_: unknown, i: number) => i + 1 };
  const people: Column<Overview['fieldUsers'][number]>[] = [
    sn,
    { header: 'Field user', cell: (f) => <>{f.fullName}{f.held && <span className="bc-chip bc-chip--held">Held from pay</span>}</> },
    { header: 'Selected', className: 'num', cell: (f) => f.selected },
    { header: 'Done', className: 'num', cell: (f) => f.completed },
    { header: 'Differ', className: 'num', cell: (f) => `${f.mismatched} of ${f.compared}` },
    { header: 'Discrepancy', className: 'num', cell: (f) => pct(f.rate) },
  ];
  const questions: Column<Overview['questions'][number]>[] = [
    sn,
    { header: 'Question', className: 'wrap', cell: (q) => q.text },
    { header: 'Compared', className: 'num', cell: (q) => q.compared },
    { header: 'Differ', className: 'num', cell: (q) => q.mismatched },
    { header: 'Discrepancy', className: 'num', cell: (q) => pct(q.rate) },
  ];
  const assignments: Column<Overview['assignments'][number]>[] = [
    sn,
    { header: 'Field user', cell: (a) => a.fieldUser },
    { header: 'Back-checker', cell: (a) => a.backchecker ?? <span className="resp-na">Nobody eligible yet</span> },
    { header: 'Why', cell: (a) => REASON[a.reason] },
    { header: 'Selected', cell: (a) => formatResponseDate(a.selectedAt) },
    { header: 'Done', cell: (a) => (a.completedAt ? formatResponseDate(a.completedAt) : 'Waiting') },
    { header: 'Discrepancy', className: 'num', cell: (a) => (a.mismatch ? <strong className="bc-bad">{pct(a.rate)}</strong> : pct(a.rate)) },
  ];

  return (
    <section className="mgmt bc-office">
      <MgmtHead
        title={`${survey.title} Back-checks`}
        sub="A random share of each field user's interviews is revisited by another team, and the answers that should not change are compared."
        actions={
          <>
            <ActiveSurveyButton />
            <button type="button" className="btn btn--ghost" onClick={() => void exportSheet()} disabled={exporting}>{exporting ? 'Exporting…' : 'Export'}</button>
            <RefreshButton onClick={list.refresh} busy={list.loading} />
          </>
        }
      />
      {data && (
        <dl className="bc-cards" aria-label="Back-check totals">
          <div><dt>Selected</dt><dd>{data.totals.selected}</dd></div>
          <div><dt>Waiting for a back-checker</dt><dd>{data.totals.unassigned}</dd></div>
          <div><dt>Completed</dt><dd>{data.totals.completed}</dd></div>
          <div><dt>Discrepancy</dt><dd>{pct(data.totals.rate)}</dd></div>
          <div><dt>Returned automatically</dt><dd>{data.totals.returned}</dd></div>
        </dl>
      )}
      {data && <SettingsPanel survey={survey} data={data} onSaved={list.refresh} />}
      {data && <FormPanel survey={survey} data={data} onSaved={list.refresh} />}
      {data && data.weeks.some((w) => w.completed > 0) && <Trend weeks={data.weeks} />}
      <div className="mgmt-panel">
        <h2 className="bc-h2 bc-h2--table">By field user</h2>
        <DataTable label="Discrepancy by field user" columns={people} rows={data?.fieldUsers} rowKey={(f) => f.memberId} loading={list.loading} empty={<p>No response selected yet.</p>} />
      </div>
      <div className="mgmt-panel">
        <h2 className="bc-h2 bc-h2--table">By question</h2>
        <DataTable label="Discrepancy by question" columns={questions} rows={data?.questions} rowKey={(q) => q.id} loading={list.loading} empty={<p>No back-check completed yet.</p>} />
      </div>
      <div className="mgmt-panel">
        <h2 className="bc-h2 bc-h2--table">Assignments</h2>
        <DataTable label="Back-check assignments" columns={assignments} rows={data?.assignments} rowKey={(a) => a._id} loading={list.loading} empty={<p>Nothing selected yet: responses are drawn every few minutes once back-checks are on.</p>} />
        {data && <Pager page={data.page} count={data.assignments.length} total={data.totalCount} hasPreviousPage={data.hasPreviousPage} hasNextPage={data.hasNextPage} onPage={list.setPage} />}
      </div>
    </section>
  );
}

function SettingsPanel({ survey, data, onSaved }: { survey: Survey; data: Overview; onSaved: () => void }) {
  const [s, setS] = useState<BackcheckSettings>(data.settings);
  const [saving, setSaving] = useState(false);
  const eligible = survey.questions.filter((q) => STABLE_QUESTION_TYPES.includes(q.type) && q.parent === undefined);
  const num = (key: 'percent' | 'minPerWeek' | 'threshold') => (e: { target: { value: string } }) => setS({ ...s, [key]: Number(e.target.value) });

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    try {
      await api.call('surveySettings', { params: { id: survey._id }, body: { backcheck: s } });
      toast.success('Back-check settings saved');
      onSaved();
    } catch {
      // Toasted by the client.
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="mgmt-panel bc-pad bc-settings" onSubmit={(e) => void save(e)} aria-label="Back-check settings">
      <h2 className="bc-h2">Sampling and comparison</h2>
      <div className="bc-settings__grid">
        <label>Share of each field user's responses (%)<input type="number" min={0} max={100} step="any" value={s.percent} onChange={num('percent')} /></label>
        <label>At least per field user per week<input type="number" min={0} max={100} step={1} value={s.minPerWeek} onChange={num('minPerWeek')} /></label>
        <label>Mismatch above (% of stable answers differing)<input type="number" min={0} max={100} step="any" value={s.threshold} onChange={num('threshold')} /></label>
      </div>
      <label className="bc-check"><input type="checkbox" checked={s.includeFlagged} onChange={(e) => setS({ ...s, includeFlagged: e.target.checked })} /> Always back-check flagged responses</label>
      <label className="bc-check"><input type="checkbox" checked={s.autoReturn} onChange={(e) => setS({ ...s, autoReturn: e.target.checked })} /> Return a mismatched response to its field user automatically</label>
      <fieldset className="bc-stable">
        <legend>Stable questions (answers that should not change on a revisit)</legend>
        {eligible.map((q) => (
          <label key={q.id} className="bc-check">
            <input type="checkbox" checked={s.stableQuestionIds.includes(q.id)} onChange={(e) => setS({ ...s, stableQuestionIds: e.target.checked ? [...s.stableQuestionIds, q.id] : s.stableQuestionIds.filter((id) => id !== q.id) })} />
            {q.text}
          </label>
        ))}
      </fieldset>
      {data.seed && <p className="form__hint">Selection seed (with the response ids it re-derives every draw): <code>{data.seed}</code></p>}
      <button type="submit" className="btn btn--primary" disabled={saving}>{saving ? 'Saving…' : 'Save settings'}</button>
    </form>
  );
}

type OwnRow = { id?: string; text: string; type: string; options: string };

function FormPanel({ survey, data, onSaved }: { survey: Survey; data: Overview; onSaved: () => void }) {
  const form = data.form;
  const [own, setOwn] = useState<OwnRow[]>(() => (form ? form.questions.filter((q) => form.ownQuestionIds.includes(q.id)).map((q) => ({ id: q.id, text: q.text, type: q.type, options: q.options.join(', ') })) : [{ text: 'Did an enumerator visit you?', type: QuestionType.select, options: 'Yes, No' }]));
  const [tolerances, setTolerances] = useState<Record<string, number>>(form?.tolerances ?? {});
  const [respondent, setRespondent] = useState<string>(form?.respondentQuestionId ?? '');
  const [saving, setSaving] = useState(false);
  const stable = survey.questions.filter((q) => data.settings.stableQuestionIds.includes(q.id));
  const textQuestions = survey.questions.filter((q) => q.type === QuestionType.text && !data.settings.stableQuestionIds.includes(q.id));
  const edit = (i: number, patch: Partial<OwnRow>) => setOwn(own.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  async function publish(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    try {
      const questions = own.filter((r) => r.text.trim() !== '').map((r) => ({ ...(r.id ? { id: r.id } : {}), text: r.text, type: r.type as QuestionType, options: r.type === QuestionType.select ? r.options.split(',').map((o) => o.trim()).filter(Boolean) : [] }));
      const kept = Object.fromEntries(Object.entries(tolerances).filter(([id]) => stable.some((q) => q.id === id && NUMERIC.includes(q.type))));
      await api.call('backcheckForm', { params: { id: survey._id }, body: { questions, tolerances: kept, respondentQuestionId: respondent || null } });
      toast.success('Back-check form published');
      onSaved();
    } catch {
      // Toasted by the client.
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="mgmt-panel bc-pad bc-form" onSubmit={(e) => void publish(e)} aria-label="Back-check form">
      <h2 className="bc-h2">Back-check form {form ? <small>version {form.version}</small> : null}</h2>
      <p className="form__hint">The back-checker asks the {stable.length} stable question{stable.length === 1 ? '' : 's'} again, then these questions of its own.</p>
      {own.map((r, i) => (
        <div key={i} className="bc-own">
          <input aria-label={`Question ${i + 1}`} value={r.text} onChange={(e) => edit(i, { text: e.target.value })} placeholder="Question" />
          <select aria-label={`Type of question ${i + 1}`} value={r.type} onChange={(e) => edit(i, { type: e.target.value })}>
            <option value={QuestionType.select}>Select</option>
            <option value={QuestionType.text}>Text answer</option>
            <option value={QuestionType.number}>Number</option>
          </select>
          {r.type === QuestionType.select && <input aria-label={`Options of question ${i + 1}`} value={r.options} onChange={(e) => edit(i, { options: e.target.value })} placeholder="Options, comma separated" />}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOwn(own.filter((_, j) => j !== i))}>Remove</button>
        </div>
      ))}
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOwn([...own, { text: '', type: QuestionType.text, options: '' }])}>Add question</button>
      {stable.some((q) => NUMERIC.includes(q.type)) && (
        <fieldset className="bc-stable">
          <legend>Tolerance of numeric stable questions (largest difference counted as the same)</legend>
          {stable.filter((q) => NUMERIC.includes(q.type)).map((q) => (
            <label key={q.id}>{q.text}<input type="number" min={0} step="any" value={tolerances[q.id] ?? 0} onChange={(e) => setTolerances({ ...tolerances, [q.id]: Number(e.target.value) })} /></label>
          ))}
        </fieldset>
      )}
      <label className="bc-respondent">Respondent's name (shown to the back-checker)
        <select value={respondent} onChange={(e) => setRespondent(e.target.value)}>
          <option value="">None</option>
          {textQuestions.map((q) => <option key={q.id} value={q.id}>{q.text}</option>)}
        </select>
      </label>
      <p className="form__hint">Back-checkers: {data.backcheckers.length === 0 ? 'none yet (invite field users as back-checkers, or add a supervisor)' : data.backcheckers.map((b) => `${b.fullName} (${b.role === 'supervisor' ? 'supervisor' : 'field user'})`).join(', ')}. Nobody checks their own or their own team's work.</p>
      <button type="submit" className="btn btn--primary" disabled={saving}>{saving ? 'Publishing…' : 'Publish form'}</button>
    </form>
  );
}

function Trend({ weeks }: { weeks: Overview['weeks'] }) {
  const max = Math.max(1, ...weeks.map((w) => w.rate ?? 0));
  return (
    <div className="mgmt-panel bc-pad">
      <h2 className="bc-h2">Discrepancy by week</h2>
      <ol className="bc-trend" aria-label="Discrepancy by week">
        {weeks.map((w) => (
          <li key={w.week} title={`Week of ${w.week}: ${w.completed} back-checks, ${pct(w.rate)}`}>
            <span className="bc-trend__bar" style={{ height: `${((w.rate ?? 0) / max) * 100}%` }} />
            <span className="bc-trend__label">{w.week.slice(5)}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
