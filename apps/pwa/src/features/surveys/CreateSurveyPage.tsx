import {
  type ConditionOp,
  DISABLED_QUESTION_TYPES,
  isPersonalQuestion,
  LENGTH_QUESTION_TYPES,
  Msg,
  NO_ANSWER_QUESTION_TYPES,
  NEVER_COMPULSORY_QUESTION_TYPES,
  NUMERIC_QUESTION_TYPES,
  OPTION_QUESTION_TYPES,
  BUILDER_QUESTION_TYPES,
  QuestionType,
  RANGE_QUESTION_TYPES,
  type Question,
} from '@survey-bird/contracts';
import { lazy, Suspense, useEffect, useReducer, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { api } from '../../api';
import { navigateTo } from '../../lib/navigate';
import { paths } from '../../lib/paths';
import { Spinner } from '../../ui/Spinner';
import { confirmDialog } from '../../lib/dialog-store';
import { toast } from '../../lib/toast-store';
import { useSession } from '../accounts/session';
import { useActiveSurvey } from './active-survey';
import { EditIcon, TrashIcon, UploadIcon } from '../team/icons';
import { ImportXlsformButton } from './ImportXlsformButton';
import { AddContainer, ContainerSettings, MoveControls } from './StructureControls';
import { readableExpression, referable } from './builder-structure';
import './create-survey-structure.css';
import {
  builderReducer,
  commitProblem,
  earlierQuestions,
  EMPTY_BUILDER,
  formLogicSummary,
  formOptions,
  isBlank,
  nestingDepths,
  OP_LABELS,
  opsFor,
  optionsSummary,
  parseDatasetFile,
  parseDraft,
  publishBody,
  showIfSummary,
  type BuilderState,
} from './builder';
import './create-survey.css';
import '../team/team.css';
import { accountKey } from '../../session/account-key';
import { StorageKey } from '../../session/storage-keys';
import { countOf } from '../../ui/format';
import { loadPart } from '../../lib/i18n';

const DRAFT_SAVE_MS = 400;
// The preview is the phone's form: it loads with the form's words (the 'form' catalog part), or it shows ids.
const FormPreview = lazy(() => Promise.all([import('./FormPreview'), loadPart('form')]).then(([m]) => m));
// The languages table is opened on demand: its module stays out of the office route's first load.
const TranslationsPanel = lazy(() => import('./TranslationsPanel'));
// The calculation, hint and expression fields (with the engine's live check) load with the editor, after the route.
const QuestionLogic = lazy(() => import('./QuestionLogic'));

function readDraft(key: string, initial: BuilderState = EMPTY_BUILDER): BuilderState {
  try {
    return parseDraft(localStorage.getItem(key)) ?? initial;
  } catch {
    return initial;
  }
}

/** Editing a published survey: the builder starts from its latest version; Publish puts the next one. */
export interface SurveyEdit {
  survey: { _id: string; title: string; version?: number | undefined };
  initial: BuilderState;
}

/**
 * Keeps the builder in localStorage under `key` (one per account, and per survey while editing) until
 * it is published or discarded. An edit left as the published version is no draft: keeping it would
 * later hide a version published from elsewhere.
 */
function writeDraft(key: string, state: BuilderState, published?: BuilderState): void {
  try {
    if (isBlank(state) || (published && JSON.stringify(state) === JSON.stringify(published))) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(state));
  } catch {
    // Quota reached (a very large option list): the survey is still on screen, only not kept for a reload.
  }
}

/** Spec screen 4: build a survey question by question, then publish it (or, editing, publish its next version). */
export function CreateSurveyPage({ edit }: { edit?: SurveyEdit } = {}) {
  const { user } = useSession();
  const draftKey = StorageKey.surveyDraft(accountKey(user?.email ?? ''), edit?.survey._id);
  const [state, dispatch] = useReducer(builderReducer, draftKey, (key) => readDraft(key, edit?.initial));
  const [busy, setBusy] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [translating, setTranslating] = useState(false);
  const { setActive } = useActiveSurvey();
  const latest = useRef({ draftKey, state });
  latest.current = { draftKey, state };

  const published = edit?.initial;
  useEffect(() => {
    const timer = setTimeout(() => writeDraft(draftKey, state, published), DRAFT_SAVE_MS);
    return () => clearTimeout(timer);
  }, [draftKey, state, published]);
  useEffect(() => {
    // A reload or a closed tab unmounts nothing: the last 400 ms of typing are written on pagehide.
    const flush = () => writeDraft(latest.current.draftKey, latest.current.state, published);
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [published]);

  async function discard() {
    if (!edit) return;
    const yes = await confirmDialog({ title: 'Discard your changes?', body: `The survey goes back to version ${edit.survey.version ?? 1} as published. Your unpublished changes are deleted from this device.`, action: 'Discard changes', cancel: 'Keep editing', tone: 'danger' });
    if (!yes) return;
    dispatch({ type: 'restore', state: edit.initial });
    latest.current.state = edit.initial;
    writeDraft(draftKey, edit.initial, edit.initial);
    toast.success('Changes discarded');
  }

  async function publish() {
    if (busy) return;
    const checked = publishBody(state);
    if (!checked.ok) return toast.error(checked.msg);
    setBusy(true);
    try {
      const reply = edit
        ? await api.call('updateSurvey', { params: { id: edit.survey._id }, body: checked.body })
        : await api.call('createSurvey', { body: checked.body });
      setActive(reply.survey);
      dispatch({ type: 'reset' });
      latest.current.state = EMPTY_BUILDER;
      writeDraft(draftKey, EMPTY_BUILDER);
      toast.success(edit ? `Version ${reply.survey.version ?? ''} published`.replace('  ', ' ') : Msg.surveyPublished);
      navigateTo(paths.orgSurveys);
    } catch {
      // The API client toasted the server's message; the draft stays.
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="builder" aria-busy={busy}>
      <div className="builder__intro">
        {edit ? (
          <>
            <h1 className="mgmt__title">Edit survey</h1>
            <p className="mgmt__sub">Fix texts, add, remove or reorder questions. Publishing makes version {(edit.survey.version ?? 1) + 1}; responses already made keep the version they were made on, and phones pick up the new one at their next sync.</p>
          </>
        ) : (
          <>
            <h1 className="mgmt__title">Let's get started!</h1>
            <p className="mgmt__sub">Give your survey a title, add its questions, then publish it to invite field users.</p>
            <ImportXlsformButton onDraft={(draft) => dispatch({ type: 'restore', state: draft })} />
          </>
        )}
      </div>
      <div className="builder__grid" inert={busy}>
        <div className="builder__main">
          <div className="card form">
            <div className="field">
              <label htmlFor="survey-title">Survey title</label>
              <input id="survey-title" value={state.title} maxLength={200} onChange={(e) => dispatch({ type: 'survey', change: { title: e.target.value } })} placeholder="e.g. Water point census, Ward 4" />
            </div>
            <div className="field">
              <label htmlFor="survey-description">Description</label>
              <textarea id="survey-description" value={state.description} maxLength={2000} onChange={(e) => dispatch({ type: 'survey', change: { description: e.target.value } })} placeholder="What the survey is for and how to fill it in" />
            </div>
            <div className="field builder__expected">
              <label htmlFor="survey-expected">Expected responses <span className="optional">(optional)</span></label>
              <input id="survey-expected" type="number" inputMode="numeric" min={0} step={1} value={state.expected} onChange={(e) => dispatch({ type: 'survey', change: { expected: e.target.value } })} />
            </div>
          </div>
          <QuestionList
            state={state}
            onEdit={(index) => {
              dispatch({ type: 'edit', index });
              // On a phone the form sits below the list: bring it into view.
              document.getElementById('q-text')?.focus();
            }} onDelete={(index) => dispatch({ type: 'delete', index })} onQuestions={(questions) => dispatch({ type: 'questions', questions })} />
        </div>
        <QuestionEditor state={state} dispatch={dispatch} />
      </div>
      <div className="builder__publish">
        <p className="builder__count">
          <strong>{state.questions.length === 1 ? '1 question' : `${state.questions.length} questions`} added</strong>
          <span className="builder__note">{edit ? 'Editing: nothing changes until you publish.' : 'You can edit the survey after publishing; each publish is a new version.'}</span>
        </p>
        {edit && <button type="button" className="btn btn--ghost btn--lg" onClick={() => void discard()} disabled={busy || JSON.stringify(state) === JSON.stringify(edit.initial)}>Discard changes</button>}
        <button type="button" className="btn btn--ghost btn--lg" onClick={() => setTranslating(true)} disabled={state.questions.length === 0}>Languages{state.languages && state.languages.length > 1 ? ` (${state.languages.length})` : ''}</button>
        <button type="button" className="btn btn--ghost btn--lg" onClick={() => setPreviewing(true)} disabled={state.questions.length === 0}>Preview</button>
        <button type="button" className="btn btn--primary btn--lg" onClick={() => void publish()} disabled={busy} aria-disabled={busy}>
          {busy && <Spinner label="Publishing" />} {busy ? 'Publishing…' : 'Publish'}
        </button>
      </div>
      {translating && (
        <Suspense fallback={null}>
          <TranslationsPanel questions={state.questions} languages={{ languages: state.languages, defaultLanguage: state.defaultLanguage }} onChange={(questions, languages) => dispatch({ type: 'languages', questions, languages })} onClose={() => setTranslating(false)} />
        </Suspense>
      )}
      {previewing && (
        <Suspense fallback={null}>
          <FormPreview title={state.title} description={state.description} questions={state.questions} languages={state.languages} defaultLanguage={state.defaultLanguage} onClose={() => setPreviewing(false)} />
        </Suspense>
      )}
    </section>
  );
}

function QuestionList({ state, onEdit, onDelete, onQuestions }: { state: BuilderState; onEdit: (i: number) => void; onDelete: (i: number) => void; onQuestions: (questions: Question[]) => void }) {
  const depths = nestingDepths(state.questions);
  return (
    <div className="card">
      <h2 className="card__title">Questions</h2>
      <AddContainer questions={state.questions} onQuestions={onQuestions} />
      {state.questions.length === 0 ? (
        <p className="card__text builder__none">No question added yet. Write one in the new-question form and press Add.</p>
      ) : (
        <ol className="qlist">
          {state.questions.map((q, i) => {
            const summary = optionsSummary(q);
            const depth = depths[i] ?? 0;
            const container = q.type === QuestionType.group || q.type === QuestionType.repeat;
            return (
              <li key={q.id ?? `${i}-${q.text}`} className={`qlist__item${state.editing === i ? ' is-editing' : ''}${container ? ' qlist__item--container' : ''}`} style={depth > 0 ? { marginInlineStart: `${Math.min(depth, 4) * 20}px` } : undefined}>
                <span className="qlist__num">{i + 1}</span>
                <div className="qlist__body">
                  <p className="qlist__text">
                    {q.text.includes('${') ? readableExpression(q.text, state.questions) : q.text}
                    {q.compulsory && <span className="qlist__required" aria-label="compulsory"> *</span>}
                  </p>
                  <p className="qlist__meta">
                    <span className="badge">{q.type}</span>
                    {!NO_ANSWER_QUESTION_TYPES.includes(q.type) && isPersonalQuestion(q) && <span className="badge badge--personal">personal</span>}
                    {summary && <span className="qlist__options">{summary}</span>}
                    {q.showIf && <span className="qlist__options">{showIfSummary(q.showIf, state.questions)}</span>}
                    {q.constraint && <span className="qlist__options">Has limits</span>}
                    {formLogicSummary(q, state.questions).map((t) => <span key={t} className="qlist__options">{t}</span>)}
                  </p>
                  <MoveControls questions={state.questions} index={i} onQuestions={onQuestions} />
                  {container && <ContainerSettings questions={state.questions} index={i} languages={state.languages} onQuestions={onQuestions} />}
                </div>
                <div className="qlist__actions">
                  <button type="button" className="btn btn--ghost btn--sm" onClick={() => onEdit(i)} aria-label={`Edit question ${i + 1}`}><EditIcon size={16} /> Edit</button>
                  <button type="button" className="btn btn--danger-outline btn--sm" onClick={() => onDelete(i)} aria-label={`Delete question ${i + 1}`}><TrashIcon size={16} /> Delete</button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

function QuestionEditor({ state, dispatch }: { state: BuilderState; dispatch: (a: Parameters<typeof builderReducer>[1]) => void }) {
  const { form, editing } = state;
  const isLarge = form.type === QuestionType.largeSelect;
  const needsOptions = OPTION_QUESTION_TYPES.includes(form.type);
  const datasetCount = isLarge ? formOptions(form).length : 0;
  const selfId = editing === null ? undefined : state.questions[editing]?.id;
  const refs = referable(state.questions, selfId);

  function submit(e: FormEvent) {
    e.preventDefault();
    const problem = commitProblem(state);
    if (problem) return toast.error(problem);
    dispatch({ type: 'commit' });
  }

  async function readFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const options = parseDatasetFile(file.name, await file.text());
    if (options.length === 0) return toast.error(`No option found in ${file.name}`);
    dispatch({ type: 'form', change: { dataset: options, datasetFile: file.name, options: '' } });
  }

  return (
    <form className="card form builder__editor" onSubmit={submit} noValidate>
      <h2 className="card__title">{editing === null ? 'New question' : `Edit question ${editing + 1}`}</h2>
      <div className="field">
        <label htmlFor="q-text">Question</label>
        <textarea id="q-text" className="builder__qtext" value={form.text} maxLength={500} onChange={(e) => dispatch({ type: 'form', change: { text: e.target.value } })} placeholder="e.g. Is the pump working?" />
        {refs.length > 0 && (form.type === QuestionType.note || form.text.includes('${')) && (
          <select className="expr__refs" aria-label="Insert an answer into the question text" value="" onChange={(e) => { if (e.target.value) dispatch({ type: 'form', change: { text: `${form.text}\${${e.target.value}}` } }); }}>
            <option value="">Show an answer in the text…</option>
            {refs.map((q) => <option key={q.id} value={q.id}>{q.text}</option>)}
          </select>
        )}
      </div>
      <div className="field">
        <label htmlFor="q-type">Answer type</label>
        <select id="q-type" value={form.type} onChange={(e) => dispatch({ type: 'form', change: { type: e.target.value as QuestionType } })}>
          {BUILDER_QUESTION_TYPES.map((t) => (
            <option key={t} value={t} disabled={DISABLED_QUESTION_TYPES.includes(t)}>{t}</option>
          ))}
        </select>
      </div>
      {needsOptions && (
        <div className="field">
          <label htmlFor="q-options">Options</label>
          <input id="q-options" value={form.options} onChange={(e) => dispatch({ type: 'form', change: { options: e.target.value } })} placeholder="Enter options separated by commas (2-50)" />
        </div>
      )}
      {isLarge && (
        <div className="field">
          <label htmlFor={form.dataset ? undefined : 'q-dataset'}>Option list</label>
          {form.dataset ? (
            <div className="dataset">
              <p><strong>{countOf(datasetCount, 'option')}</strong> from {form.datasetFile}</p>
              <p className="dataset__preview">{form.dataset.slice(0, 5).join(', ')}{form.dataset.length > 5 ? ', …' : ''}</p>
              <button type="button" className="link" onClick={() => dispatch({ type: 'form', change: { dataset: null, datasetFile: null } })}>Remove this list</button>
            </div>
          ) : (
            <>
              <textarea id="q-dataset" className="dataset__paste" value={form.options} onChange={(e) => dispatch({ type: 'form', change: { options: e.target.value } })} placeholder={'Paste the options, one per line\nor separated by commas'} />
              <p className="form__hint" aria-live="polite">{countOf(datasetCount, 'option')}</p>
            </>
          )}
          <label className="btn btn--ghost btn--sm dataset__upload">
            <UploadIcon size={16} /> Upload CSV or TXT
            <input type="file" accept=".csv,.txt,text/csv,text/plain" className="visually-hidden" onChange={(e) => void readFile(e)} />
          </label>
          <p className="form__hint">For lists over 50 options. A CSV file gives its first column.</p>
        </div>
      )}
      {RANGE_QUESTION_TYPES.includes(form.type) && (
        <div className="builder__pair">
          <div className="field">
            <label htmlFor="q-min">Minimum <span className="optional">(optional)</span></label>
            <input id="q-min" type={rangeInput(form.type)} inputMode={NUMERIC_QUESTION_TYPES.includes(form.type) ? 'decimal' : undefined} value={form.min} onChange={(e) => dispatch({ type: 'form', change: { min: e.target.value } })} />
          </div>
          <div className="field">
            <label htmlFor="q-max">Maximum <span className="optional">(optional)</span></label>
            <input id="q-max" type={rangeInput(form.type)} inputMode={NUMERIC_QUESTION_TYPES.includes(form.type) ? 'decimal' : undefined} value={form.max} onChange={(e) => dispatch({ type: 'form', change: { max: e.target.value } })} />
          </div>
        </div>
      )}
      {form.type === QuestionType.date && (
        <label className="check">
          <input type="checkbox" checked={form.notInFuture} onChange={(e) => dispatch({ type: 'form', change: { notInFuture: e.target.checked } })} />
          Not in the future
        </label>
      )}
      {LENGTH_QUESTION_TYPES.includes(form.type) && (
        <div className="builder__pair">
          <div className="field">
            <label htmlFor="q-minlength">Min length <span className="optional">(optional)</span></label>
            <input id="q-minlength" type="text" inputMode="numeric" value={form.minLength} onChange={(e) => dispatch({ type: 'form', change: { minLength: e.target.value } })} />
          </div>
          <div className="field">
            <label htmlFor="q-maxlength">Max length <span className="optional">(optional)</span></label>
            <input id="q-maxlength" type="text" inputMode="numeric" value={form.maxLength} onChange={(e) => dispatch({ type: 'form', change: { maxLength: e.target.value } })} />
          </div>
        </div>
      )}
      {(RANGE_QUESTION_TYPES.includes(form.type) || LENGTH_QUESTION_TYPES.includes(form.type)) && (
        <div className="field">
          <label htmlFor="q-message">Message when the limits are broken <span className="optional">(optional)</span></label>
          <input id="q-message" value={form.message} maxLength={200} onChange={(e) => dispatch({ type: 'form', change: { message: e.target.value } })} placeholder="e.g. Age must be between 0 and 120" />
        </div>
      )}
      <Suspense fallback={null}><QuestionLogic part="calculation" state={state} dispatch={dispatch} /></Suspense>
      <ShowIfEditor state={state} dispatch={dispatch} />
      <Suspense fallback={null}><QuestionLogic key={editing ?? 'new'} part="logic" state={state} dispatch={dispatch} /></Suspense>
      {!NO_ANSWER_QUESTION_TYPES.includes(form.type) && !NEVER_COMPULSORY_QUESTION_TYPES.includes(form.type) && (
        <label className="check">
          <input type="checkbox" checked={form.compulsory} onChange={(e) => dispatch({ type: 'form', change: { compulsory: e.target.checked } })} />
          Compulsory
        </label>
      )}
      {!NO_ANSWER_QUESTION_TYPES.includes(form.type) && (
        <label className="check" title="Names, phone numbers, addresses, photos, locations: hidden from analysts and from exports without personal data, removed by erasure and retention">
          <input type="checkbox" checked={form.personal ?? isPersonalQuestion({ type: form.type })} onChange={(e) => dispatch({ type: 'form', change: { personal: e.target.checked } })} />
          Personal data <span className="optional">(hidden from analysts)</span>
        </label>
      )}
      <div className="builder__editor-actions">
        {editing !== null && <button type="button" className="btn btn--ghost" onClick={() => dispatch({ type: 'cancelEdit' })}>Cancel</button>}
        <button type="submit" className="btn btn--accent">{editing === null ? 'Add' : 'Save'}</button>
      </div>
    </form>
  );
}

const rangeInput = (type: QuestionType) => (type === QuestionType.date ? 'date' : type === QuestionType.time ? 'time' : 'text');

/** Show-if: conditions on earlier questions' answers, all or any of them. */
function ShowIfEditor({ state, dispatch }: { state: BuilderState; dispatch: (a: Parameters<typeof builderReducer>[1]) => void }) {
  const earlier = earlierQuestions(state).filter((q) => q.id !== undefined);
  const { conditions, combine } = state.form;
  if (earlier.length === 0) return null;
  return (
    <fieldset className="field builder__showif">
      <legend>Show this question only if</legend>
      {conditions.length > 1 && (
        <select aria-label="Combine the conditions" value={combine} onChange={(e) => dispatch({ type: 'form', change: { combine: e.target.value as 'all' | 'any' } })}>
          <option value="all">all of these hold</option>
          <option value="any">any of these holds</option>
        </select>
      )}
      {conditions.map((c, i) => {
        const source = earlier.find((q) => q.id === c.question);
        const choices = source && OPTION_QUESTION_TYPES.includes(source.type) ? source.options : null;
        return (
          <div key={i} className="builder__condition">
            <select aria-label={`Condition ${i + 1}: question`} value={c.question} onChange={(e) => dispatch({ type: 'condition', index: i, change: { question: e.target.value, value: '' } })}>
              {earlier.map((q) => <option key={q.id} value={q.id}>{q.text}</option>)}
            </select>
            <select aria-label={`Condition ${i + 1}: test`} value={c.op} onChange={(e) => dispatch({ type: 'condition', index: i, change: { op: e.target.value as ConditionOp } })}>
              {(source ? opsFor(source.type) : []).map((op) => <option key={op} value={op}>{OP_LABELS[op]}</option>)}
            </select>
            {c.op !== 'answered' && (choices ? (
              <select aria-label={`Condition ${i + 1}: value`} value={c.value} onChange={(e) => dispatch({ type: 'condition', index: i, change: { value: e.target.value } })}>
                <option value="" disabled>Choose</option>
                {choices.map((o) => <option key={o} value={o}>{o}</option>)}
              </select>
            ) : (
              <input aria-label={`Condition ${i + 1}: value`} type={source ? rangeInput(source.type) : 'text'} value={c.value} onChange={(e) => dispatch({ type: 'condition', index: i, change: { value: e.target.value } })} />
            ))}
            <button type="button" className="btn btn--ghost btn--sm" aria-label={`Remove condition ${i + 1}`} onClick={() => dispatch({ type: 'condition', index: i, change: null })}><TrashIcon size={16} /></button>
          </div>
        );
      })}
      <button type="button" className="link" onClick={() => dispatch({ type: 'addCondition', question: earlier[earlier.length - 1]!.id! })}>
        {conditions.length === 0 ? '+ Show only if an earlier answer…' : '+ Add a condition'}
      </button>
    </fieldset>
  );
}
