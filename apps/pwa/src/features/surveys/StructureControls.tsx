import { QuestionType, type Question, type SurveyLanguage } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { toast } from '../../lib/toast-store';
import { entryProblems, hasFieldList, isContainer, moveTargets, movedBy, movedInto, repeatCountOf, withContainer, withFieldList, withFields, type ContainerKind } from './builder-structure';

type SetQuestions = (questions: Question[]) => void;

/**
 * "Add group" and "Add repeat": a titled container at the end of the form; questions are then
 * moved into it with each question's "Move to".
 */
export function AddContainer({ questions, onQuestions }: { questions: readonly Question[]; onQuestions: SetQuestions }) {
  const [kind, setKind] = useState<ContainerKind | null>(null);
  const [title, setTitle] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = title.trim();
    if (text === '') return toast.error(kind === QuestionType.repeat ? 'Give the repeat a name, e.g. Household member' : 'Give the group a title');
    if (questions.some((q) => q.text.trim().toLowerCase() === text.toLowerCase())) return toast.error('Each question, group and repeat needs its own text');
    onQuestions(withContainer(questions, kind!, text));
    setKind(null);
    setTitle('');
  };
  if (kind === null) {
    return (
      <div className="structure__add">
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setKind(QuestionType.group)}>+ Add group</button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setKind(QuestionType.repeat)}>+ Add repeat</button>
      </div>
    );
  }
  return (
    <form className="structure__add structure__add--open" onSubmit={submit}>
      <label htmlFor="structure-title">{kind === QuestionType.repeat ? 'Repeat name (what is repeated)' : 'Group title'}</label>
      <input id="structure-title" value={title} maxLength={500} autoFocus onChange={(e) => setTitle(e.target.value)} placeholder={kind === QuestionType.repeat ? 'e.g. Household member' : 'e.g. Household'} />
      <div className="structure__add-actions">
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => { setKind(null); setTitle(''); }}>Cancel</button>
        <button type="submit" className="btn btn--accent btn--sm">{kind === QuestionType.repeat ? 'Add repeat' : 'Add group'}</button>
      </div>
    </form>
  );
}

/** Per entry of the list: up and down among the entries of its container, and "Move to" another container or the top. */
export function MoveControls({ questions, index, onQuestions }: { questions: readonly Question[]; index: number; onQuestions: SetQuestions }) {
  const q = questions[index]!;
  const targets = moveTargets(questions, index);
  const n = index + 1;
  const up = movedBy(questions, index, -1);
  const down = movedBy(questions, index, 1);
  const same = (next: readonly Question[]) => next.every((x, i) => x === questions[i]);
  return (
    <span className="structure__move">
      <button type="button" className="btn btn--ghost btn--sm" aria-label={`Move question ${n} up`} disabled={same(up)} onClick={() => onQuestions(up)}>↑</button>
      <button type="button" className="btn btn--ghost btn--sm" aria-label={`Move question ${n} down`} disabled={same(down)} onClick={() => onQuestions(down)}>↓</button>
      {(targets.length > 0 || q.parent !== undefined) && (
        <select aria-label={`Move question ${n} to`} value={q.parent ?? ''} onChange={(e) => onQuestions(movedInto(questions, index, e.target.value === '' ? null : e.target.value))}>
          <option value="">Top level</option>
          {targets.map((t) => <option key={t.id} value={t.id}>{t.type === QuestionType.repeat ? 'Repeat' : 'Group'}: {t.text}</option>)}
        </select>
      )}
    </span>
  );
}

/**
 * A group's or repeat's settings, under it in the list: its title, when it is shown (an
 * expression, checked live as the publish will check it), a group's one-screen `field-list`, a
 * repeat's count (a number, an expression such as ${members}, or open-ended with a minimum and maximum).
 */
export function ContainerSettings({ questions, index, languages, onQuestions }: { questions: readonly Question[]; index: number; languages?: readonly SurveyLanguage[] | undefined; onQuestions: SetQuestions }) {
  const q = questions[index]!;
  const repeat = q.type === QuestionType.repeat;
  const [count, setCount] = useState(q.repeatCount === undefined ? '' : String(q.repeatCount));
  if (!isContainer(q)) return null;
  const set = (change: Partial<Question>) => onQuestions(withFields(questions, index, change));
  const problems = entryProblems(questions, index, languages);
  const id = `c-${q.id ?? index}`;
  const limit = (typed: string) => (typed.trim() === '' || !/^\d+$/.test(typed.trim()) ? undefined : Number(typed.trim()));
  const setLimit = (which: 'min' | 'max', typed: string) => {
    const next = { ...q.repeat, [which]: limit(typed) };
    if (next.min === undefined) delete next.min;
    if (next.max === undefined) delete next.max;
    set({ repeat: Object.keys(next).length > 0 ? next : undefined });
  };
  return (
    <details className="structure__settings">
      <summary>{repeat ? 'Repeat settings' : 'Group settings'}</summary>
      <div className="field">
        <label htmlFor={`${id}-title`}>{repeat ? 'Name' : 'Title'}</label>
        <input id={`${id}-title`} value={q.text} maxLength={500} onChange={(e) => set({ text: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-relevant`}>Show only if <span className="optional">(an expression, optional)</span></label>
        <input id={`${id}-relevant`} value={q.relevantExpr ?? ''} onChange={(e) => set({ relevantExpr: e.target.value.trim() === '' ? undefined : e.target.value })} placeholder="e.g. ${farms} = 'yes'" spellCheck={false} />
        <QuestionRefs questions={questions} before={index} label={`Insert a question into the condition of ${q.text}`} onPick={(ref) => set({ relevantExpr: `${q.relevantExpr ?? ''}${ref}` })} />
        <p className="form__hint">Applies to every question inside.</p>
      </div>
      {!repeat && (
        <label className="check">
          <input type="checkbox" checked={hasFieldList(q.appearance)} onChange={(e) => set({ appearance: withFieldList(q.appearance, e.target.checked) })} />
          All its questions on one screen (field-list)
        </label>
      )}
      {repeat && (
        <>
          <div className="field">
            <label htmlFor={`${id}-count`}>How many times <span className="optional">(a number or an expression; empty: as many as the field user adds)</span></label>
            <input id={`${id}-count`} value={count} spellCheck={false} onChange={(e) => { setCount(e.target.value); set({ repeatCount: repeatCountOf(e.target.value) }); }} placeholder="e.g. ${members}" />
            <QuestionRefs questions={questions} before={index} label={`Insert a question into the count of ${q.text}`} onPick={(ref) => { const next = `${count}${ref}`; setCount(next); set({ repeatCount: repeatCountOf(next) }); }} />
          </div>
          {q.repeatCount === undefined && (
            <div className="builder__pair">
              <div className="field">
                <label htmlFor={`${id}-min`}>At least <span className="optional">(optional)</span></label>
                <input id={`${id}-min`} inputMode="numeric" value={q.repeat?.min ?? ''} onChange={(e) => setLimit('min', e.target.value)} />
              </div>
              <div className="field">
                <label htmlFor={`${id}-max`}>At most <span className="optional">(optional)</span></label>
                <input id={`${id}-max`} inputMode="numeric" value={q.repeat?.max ?? ''} onChange={(e) => setLimit('max', e.target.value)} />
              </div>
            </div>
          )}
        </>
      )}
      {problems.length > 0 && <ul className="structure__problems" role="alert">{problems.map((p) => <li key={p}>{p}</li>)}</ul>}
    </details>
  );
}

/** Expressions name questions by id (`${q3k9...}`): a list of the earlier questions that inserts one, so nobody types an id. */
function QuestionRefs({ questions, before, label, onPick }: { questions: readonly Question[]; before: number; label: string; onPick: (ref: string) => void }) {
  const earlier = questions.slice(0, before).filter((x) => x.id !== undefined && !isContainer(x));
  if (earlier.length === 0) return null;
  return (
    <select aria-label={label} value="" onChange={(e) => { if (e.target.value) onPick(`\${${e.target.value}}`); }}>
      <option value="">Insert a question…</option>
      {earlier.map((x) => <option key={x.id} value={x.id}>{x.text}</option>)}
    </select>
  );
}
