import { OPTION_QUESTION_TYPES, QuestionType, type Question } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { Modal } from '../../ui/Modal';
import { toast } from '../../lib/toast-store';
import { confirmDialog } from '../../lib/dialog-store';
import { FIELD_WORDS, languageCode, readableExpression, TRANSLATED_FIELDS, withChoiceLabel, withDefaultLanguage, withLanguage, withoutLanguage, withTranslation, type Languages } from './logic-fields';
import './translations.css';

interface Props {
  questions: Question[];
  languages: Languages;
  onChange: (questions: Question[], languages: Languages) => void;
  onClose: () => void;
}

interface Row {
  key: string;
  /** What the row is, e.g. "3. Label" or "3. Option Kano". */
  what: string;
  own: string;
  value: (code: string) => string;
  set: (questions: Question[], code: string, value: string) => Question[];
}

/** Every text of the form that a language translates: labels, hints, messages, option labels (a large list's are not). */
function rowsOf(questions: readonly Question[]): Row[] {
  const rows: Row[] = [];
  questions.forEach((q, i) => {
    const n = i + 1;
    const at = (qs: Question[], next: Question) => qs.map((x, j) => (j === i ? next : x));
    for (const field of TRANSLATED_FIELDS) {
      const own = q[field];
      if (!own) continue;
      rows.push({
        key: `${i}:${field}`,
        what: `${n}. ${FIELD_WORDS[field]}`,
        own,
        value: (code) => q.translations?.[code]?.[field] ?? '',
        set: (qs, code, value) => at(qs, withTranslation(qs[i]!, code, field, value)),
      });
    }
    if (OPTION_QUESTION_TYPES.includes(q.type) && q.type !== QuestionType.largeSelect) {
      q.options.forEach((o, k) => {
        rows.push({
          key: `${i}:o${k}`,
          what: `${n}. Option`,
          own: o,
          value: (code) => q.choices?.[k]?.labels?.[code] ?? '',
          set: (qs, code, value) => at(qs, withChoiceLabel(qs[i]!, k, code, value)),
        });
      });
    }
  });
  return rows;
}

/**
 * The survey's languages and its texts in each, a column per language: the default language's
 * column is the questions' own texts (edited in the question form); each other column is typed
 * here. A text left empty falls back to the default language on the phone.
 */
export function TranslationsPanel({ questions, languages, onChange, onClose }: Props) {
  const [label, setLabel] = useState('');
  const [code, setCode] = useState('');
  const [base, setBase] = useState('English');
  const [baseCode, setBaseCode] = useState('en');
  const list = languages.languages ?? [];
  const defaultCode = languages.defaultLanguage ?? list[0]?.code;
  const others = list.filter((l) => l.code !== defaultCode);
  const defaultLabel = list.find((l) => l.code === defaultCode)?.label ?? base;
  const rows = others.length > 0 ? rowsOf(questions) : [];

  const add = (e: FormEvent) => {
    e.preventDefault();
    const next = withLanguage(languages, { code: languageCode(label, code), label }, { code: languageCode(base, baseCode), label: base.trim() || 'English' });
    if (typeof next === 'string') return toast.error(next);
    onChange(questions, next);
    setLabel('');
    setCode('');
  };
  const remove = async (c: string, name: string) => {
    const yes = await confirmDialog({ title: `Remove ${name}?`, body: `Its translations are deleted from this survey. The ${defaultLabel} texts stay.`, action: `Remove ${name}`, cancel: 'Keep it', tone: 'danger' });
    if (!yes) return;
    const out = withoutLanguage(questions, languages, c);
    onChange(out.questions, out.languages);
  };
  const makeDefault = (c: string) => {
    const out = withDefaultLanguage(questions, languages, c);
    onChange(out.questions, out.languages);
  };

  return (
    <Modal open title="Languages" onClose={onClose} className="modal--wide">
      <div className="tr">
        <p className="form__hint">Field users switch language on the form; the phone opens in the default language. A text not translated shows in the default language.</p>
        {list.length === 0 ? (
          <div className="tr__base">
            <label htmlFor="tr-base">The questions are written in</label>
            <input id="tr-base" value={base} onChange={(e) => setBase(e.target.value)} maxLength={100} />
            <label htmlFor="tr-base-code" className="tr__code-label">Code</label>
            <input id="tr-base-code" className="tr__code" value={baseCode} onChange={(e) => setBaseCode(e.target.value)} maxLength={64} />
          </div>
        ) : (
          <ul className="tr__langs">
            {list.map((l) => (
              <li key={l.code}>
                <strong>{l.label}</strong> <span className="tr__codechip">{l.code}</span>
                {l.code === defaultCode ? (
                  <span className="badge">default</span>
                ) : (
                  <>
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => makeDefault(l.code)}>Make default</button>
                    <button type="button" className="btn btn--danger-outline btn--sm" aria-label={`Remove ${l.label}`} onClick={() => void remove(l.code, l.label)}>Remove</button>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        <form className="tr__add" onSubmit={add}>
          <div className="field">
            <label htmlFor="tr-new">Add a language</label>
            <input id="tr-new" value={label} onChange={(e) => setLabel(e.target.value)} maxLength={100} placeholder="e.g. Hausa" />
          </div>
          <div className="field">
            <label htmlFor="tr-new-code">Code <span className="optional">(optional)</span></label>
            <input id="tr-new-code" className="tr__code" value={code} onChange={(e) => setCode(e.target.value)} maxLength={64} placeholder="ha" />
          </div>
          <button type="submit" className="btn btn--accent btn--sm">Add language</button>
        </form>
        {rows.length > 0 && (
          <div className="tr__scroll">
            <table className="tr__table">
              <thead>
                <tr>
                  <th scope="col">Text</th>
                  <th scope="col">{defaultLabel}</th>
                  {others.map((l) => <th key={l.code} scope="col">{l.label}</th>)}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key}>
                    <th scope="row" className="tr__what">{r.what}</th>
                    <td className="tr__own">{r.own.includes('${') ? readableExpression(r.own, questions) : r.own}</td>
                    {others.map((l) => (
                      <td key={l.code}>
                        <input aria-label={`${r.what} "${r.own}" in ${l.label}`} placeholder={l.label} value={r.value(l.code)} onChange={(e) => onChange(r.set(questions, l.code, e.target.value), languages)} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="builder__editor-actions">
          <button type="button" className="btn btn--primary" onClick={onClose}>Done</button>
        </div>
      </div>
    </Modal>
  );
}

export default TranslationsPanel;
