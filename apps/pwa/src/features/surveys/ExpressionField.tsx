import type { Question } from '@survey-bird/contracts';
import { useId } from 'react';
import { expressionProblem, readableExpression, referable } from './logic-fields';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The form's questions: what `${id}` may name, and what the picker offers. */
  questions: readonly Question[];
  /** The question being edited (it may name itself as `.` only, but its id is known). */
  selfId?: string | undefined;
  placeholder?: string;
  hint?: string;
}

/**
 * An XLSForm expression typed with its check live: the contracts' engine compiles it at every
 * keystroke and names a syntax error or an unknown `${id}` under the field, as the publish would.
 * Questions are inserted from a list by text (ids are never typed), and the expression is read
 * back with question texts in place of ids.
 */
export function ExpressionField({ id, label, value, onChange, questions, selfId, placeholder, hint }: Props) {
  const problem = expressionProblem(value, questions, selfId);
  const problemId = useId();
  const readable = value.includes('${') ? readableExpression(value, questions) : '';
  const refs = referable([...questions], selfId);
  return (
    <div className="field expr">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className={`expr__input${problem ? ' is-invalid' : ''}`}
        value={value}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        aria-invalid={problem !== null}
        aria-describedby={problem ? problemId : undefined}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
      {refs.length > 0 && (
        <select className="expr__refs" aria-label={`Insert a question into ${label}`} value="" onChange={(e) => { if (e.target.value) onChange(`${value}\${${e.target.value}}`); }}>
          <option value="">Insert a question…</option>
          {refs.map((q) => <option key={q.id} value={q.id}>{q.text}</option>)}
        </select>
      )}
      {problem ? <p id={problemId} className="expr__problem" role="alert">{problem}</p> : readable && <p className="form__hint expr__readable">Reads: {readable}</p>}
      {hint && !problem && <p className="form__hint">{hint}</p>}
    </div>
  );
}
