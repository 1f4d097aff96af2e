import { OPTION_QUESTION_TYPES, QuestionType } from '@survey-bird/contracts';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from '../../lib/toast-store';
import { fieldApplies, formOptions, type BuilderAction, type BuilderState } from './builder';
import { ExpressionField } from './ExpressionField';

type Dispatch = (a: BuilderAction) => void;

/**
 * The question form's XLSForm parts, loaded apart from the office route: a calculate question's
 * calculation (`part="calculation"`), and the folded hint, show-if, required-if, valid-if and
 * choice filter expressions with a select's option columns (`part="logic"`). Each expression is
 * checked as it is typed by the contracts' engine.
 */
export function QuestionLogic({ part, state, dispatch }: { part: 'calculation' | 'logic'; state: BuilderState; dispatch: Dispatch }) {
  const { form, editing } = state;
  const selfId = editing === null ? undefined : state.questions[editing]?.id;
  const needsOptions = OPTION_QUESTION_TYPES.includes(form.type);
  const logic = (field: Parameters<typeof fieldApplies>[1]) => fieldApplies(form.type, field);
  const hasLogic = [form.hint, form.relevantExpr, form.requiredExpr, form.constraintExpr, form.constraintMessage, form.choiceFilter].some((v) => v.trim() !== '') || form.choiceColumns.length > 0;
  const expr = (field: 'relevantExpr' | 'requiredExpr' | 'constraintExpr' | 'calculation' | 'choiceFilter', label: string, placeholder: string, hint?: string) => (
    <ExpressionField id={`q-${field}`} label={label} value={form[field]} onChange={(v) => dispatch({ type: 'form', change: { [field]: v } })} questions={state.questions} selfId={selfId} placeholder={placeholder} {...(hint ? { hint } : {})} />
  );

  if (part === 'calculation') {
    if (form.type !== QuestionType.calculate) return null;
    return expr('calculation', 'Calculation', 'e.g. ${adults} + ${children}', 'Worked out on the phone as answers change; stored with the answers and exported. Show it in a note with "Show an answer in the text".');
  }
  return (
    <LogicDetails initiallyOpen={hasLogic}>
        <div className="field">
          <label htmlFor="q-hint">Hint</label>
          <input id="q-hint" value={form.hint} maxLength={2000} onChange={(e) => dispatch({ type: 'form', change: { hint: e.target.value } })} placeholder="Shown under the question" />
        </div>
        {expr('relevantExpr', 'Show only if (expression)', "e.g. ${age} >= 18 and ${consent} = 'Yes'")}
        {logic('requiredExpr') && expr('requiredExpr', 'Required only if (expression)', 'e.g. ${members} > 0', 'Leave Compulsory unticked: the question is then required only when this holds.')}
        {logic('constraintExpr') && (
          <>
            {expr('constraintExpr', 'Valid only if (expression; . is the answer)', 'e.g. . >= 0 and . <= ${members}')}
            <div className="field">
              <label htmlFor="q-constraintMessage">Message when it is not valid</label>
              <input id="q-constraintMessage" value={form.constraintMessage} maxLength={2000} onChange={(e) => dispatch({ type: 'form', change: { constraintMessage: e.target.value } })} placeholder="e.g. Cannot be more than the household size" />
            </div>
          </>
        )}
        {logic('choiceFilter') && (
          <>
            {expr('choiceFilter', 'Choice filter (expression, checked per option)', 'e.g. state = ${state}', 'A bare name reads the option\'s column below: state = ${state} keeps the options whose state column is the answer to State.')}
            {needsOptions && <ChoiceColumns form={form} dispatch={dispatch} />}
          </>
        )}
      </LogicDetails>
  );
}

/** The question's hint and expressions, folded; open from the start when the question has some (never closed under the typing). */
function LogicDetails({ initiallyOpen, children }: { initiallyOpen: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const first = useRef(initiallyOpen);
  useEffect(() => {
    if (first.current && ref.current) ref.current.open = true;
  }, []);
  return (
    <details ref={ref} className="builder__logic">
      <summary>Hint and XLSForm logic <span className="optional">(optional)</span></summary>
      {children}
    </details>
  );
}

const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const RESERVED_COLUMNS = ['name', 'label', 'list_name', 'image', 'media'];

/** A select's filter columns: one column per name (state, lga), a value per option, read by a choice filter. */
function ChoiceColumns({ form, dispatch }: { form: BuilderState['form']; dispatch: Dispatch }) {
  const [name, setName] = useState('');
  const options = formOptions(form);
  const columns = form.choiceColumns;
  const add = () => {
    const n = name.trim();
    if (!COLUMN_NAME.test(n) || RESERVED_COLUMNS.includes(n.toLowerCase())) return toast.error('A column name is a word of letters, digits or _ (not name or label), e.g. state');
    if (columns.includes(n)) return toast.error(`There is already a ${n} column`);
    dispatch({ type: 'form', change: { choiceColumns: [...columns, n] } });
    setName('');
  };
  const setValue = (label: string, column: string, value: string) => dispatch({ type: 'form', change: { choiceValues: { ...form.choiceValues, [label]: { ...form.choiceValues[label], [column]: value } } } });
  return (
    <fieldset className="field choice-cols">
      <legend>Option columns <span className="optional">(for a choice filter)</span></legend>
      {columns.length > 0 && options.length > 0 && (
        <div className="choice-cols__scroll">
          <table className="choice-cols__table">
            <thead>
              <tr>
                <th scope="col">Option</th>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {c}{' '}
                    <button type="button" className="link" aria-label={`Remove the ${c} column`} onClick={() => dispatch({ type: 'form', change: { choiceColumns: columns.filter((x) => x !== c) } })}>×</button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {options.map((o) => (
                <tr key={o}>
                  <th scope="row">{o}</th>
                  {columns.map((c) => (
                    <td key={c}><input aria-label={`${c} of ${o}`} value={form.choiceValues[o]?.[c] ?? ''} onChange={(e) => setValue(o, c, e.target.value)} /></td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="choice-cols__add">
        <input aria-label="New column name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. state" onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); add(); } }} />
        <button type="button" className="btn btn--ghost btn--sm" onClick={add}>Add column</button>
      </div>
      <p className="form__hint">For State, LGA: give each LGA its state's option in a state column, then filter LGA with state = the State question.</p>
    </fieldset>
  );
}


export default QuestionLogic;
