import { type Choice, type Question, type QuestionTranslation, type SurveyLanguage } from '@survey-bird/contracts';
import { compileExpression } from '@survey-bird/contracts/expressions';
import { readableExpression, referable } from './builder-structure';
export { readableExpression, referable };

/**
 * The builder's XLSForm logic and languages, on the form model as stored: expressions checked as
 * they are typed with the contracts' engine (the one the phone and the server run), choice columns
 * for a choice filter, and texts in other languages, one column per language.
 */

/**
 * What is wrong with an expression as typed, or null: it does not compile (the parser's own
 * words), or it names `${id}`s that are not questions of the form. An empty expression is none.
 */
export function expressionProblem(source: string, questions: readonly Pick<Question, 'id' | 'text'>[], selfId?: string): string | null {
  if (source.trim() === '') return null;
  const compiled = compileExpression(source);
  if (!compiled.ok) return `Not a valid expression: ${compiled.error.message}`;
  const ids = new Set(questions.flatMap((q) => (q.id !== undefined ? [q.id] : [])));
  if (selfId !== undefined) ids.add(selfId);
  const unknown = compiled.expr.references.filter((r) => !ids.has(r));
  if (unknown.length > 0) return `${unknown.map((r) => `\${${r}}`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a question of this form`;
  return null;
}


/** The texts a question carries per language (its own fields are the default language's). */
export const TRANSLATED_FIELDS = ['text', 'hint', 'constraintMessage', 'requiredMessage'] as const;
export type TranslatedField = (typeof TRANSLATED_FIELDS)[number];
export const FIELD_WORDS: Record<TranslatedField, string> = { text: 'Label', hint: 'Hint', constraintMessage: 'Constraint message', requiredMessage: 'Required message' };

/** A language code from a name when none is typed: "Hausa" -> "ha"... only the lower-cased name, as XLSForm columns without a code do. */
export function languageCode(label: string, code: string): string {
  const typed = code.trim();
  return typed !== '' ? typed : label.trim().toLowerCase();
}

export interface Languages {
  languages?: SurveyLanguage[] | undefined;
  defaultLanguage?: string | undefined;
}

/**
 * A language added. A survey without languages first names the one its questions are written in
 * (`base`, English unless said): the questions' own texts are the default language's.
 */
export function withLanguage(current: Languages, added: SurveyLanguage, base: SurveyLanguage = { code: 'en', label: 'English' }): Languages | string {
  const list = current.languages && current.languages.length > 0 ? current.languages : [base];
  if (added.label.trim() === '') return 'Give the language a name, e.g. Hausa';
  if (list.some((l) => l.code === added.code || l.label.toLowerCase() === added.label.trim().toLowerCase())) return `The survey already has ${added.label.trim()}`;
  return { languages: [...list, { code: added.code, label: added.label.trim() }], defaultLanguage: current.defaultLanguage ?? list[0]!.code };
}

/** A language removed with its translations; the default language (the questions' own texts) is not removed. */
export function withoutLanguage(questions: readonly Question[], current: Languages, code: string): { questions: Question[]; languages: Languages } {
  const remaining = (current.languages ?? []).filter((l) => l.code !== code);
  const strip = (q: Question): Question => {
    const out: Question = { ...q };
    if (q.translations && code in q.translations) {
      const rest = { ...q.translations };
      delete rest[code];
      if (Object.keys(rest).length > 0) out.translations = rest;
      else delete out.translations;
    }
    if (q.choices) {
      out.choices = q.choices.map((c) => {
        if (!c.labels || !(code in c.labels)) return c;
        const labels = { ...c.labels };
        delete labels[code];
        const next: Choice = { ...c, labels };
        if (Object.keys(labels).length === 0) delete next.labels;
        return next;
      });
    }
    return out;
  };
  // One language left is no choice: the survey goes back to having none.
  const languages: Languages = remaining.length > 1 ? { languages: remaining, defaultLanguage: current.defaultLanguage } : {};
  return { questions: questions.map(strip), languages };
}

/**
 * Another language made the default: its texts become the questions' own and the old default's
 * move into the translations (a text missing in the new default keeps the old one). Choice names
 * do not change, so answers and filters keep their values.
 */
export function withDefaultLanguage(questions: readonly Question[], current: Languages, code: string): { questions: Question[]; languages: Languages } {
  const from = current.defaultLanguage ?? current.languages?.[0]?.code;
  if (from === undefined || from === code || !(current.languages ?? []).some((l) => l.code === code)) return { questions: [...questions], languages: current };
  const swapped = questions.map((q) => {
    const target = q.translations?.[code] ?? {};
    const old: QuestionTranslation = {};
    const out: Question = { ...q };
    for (const field of TRANSLATED_FIELDS) {
      const own = q[field];
      if (own) old[field] = own;
      const next = target[field];
      if (next) (out as Record<string, unknown>)[field] = next;
    }
    const translations = { ...(q.translations ?? {}) };
    delete translations[code];
    if (Object.keys(old).length > 0) translations[from] = old;
    if (Object.keys(translations).length > 0) out.translations = translations;
    else delete out.translations;
    if (q.choices) {
      out.choices = q.choices.map((c) => {
        const labels: Record<string, string> = { ...(c.labels ?? {}) };
        const label = labels[code] ?? c.label;
        delete labels[code];
        labels[from] = c.label;
        return { ...c, label, labels };
      });
      out.options = out.choices.map((c) => c.label);
    }
    return out;
  });
  return { questions: swapped, languages: { ...current, defaultLanguage: code } };
}

/** A question's text in a language set (empty removes it). */
export function withTranslation(q: Question, code: string, field: TranslatedField, value: string): Question {
  const translations = { ...(q.translations ?? {}) };
  const entry: QuestionTranslation = { ...(translations[code] ?? {}) };
  if (value.trim() === '') delete entry[field];
  else entry[field] = value;
  if (Object.keys(entry).length > 0) translations[code] = entry;
  else delete translations[code];
  const out: Question = { ...q, translations };
  if (Object.keys(translations).length === 0) delete out.translations;
  return out;
}

/** Option `n`'s label in a language set: the question gets choices (named by their labels) when it had none. */
export function withChoiceLabel(q: Question, n: number, code: string, value: string): Question {
  const choices: Choice[] = q.choices ? q.choices.map((c) => ({ ...c })) : q.options.map((o) => ({ name: o, label: o }));
  const c = choices[n];
  if (!c) return q;
  const labels = { ...(c.labels ?? {}) };
  if (value.trim() === '') delete labels[code];
  else labels[code] = value;
  if (Object.keys(labels).length > 0) c.labels = labels;
  else delete c.labels;
  return { ...q, choices };
}
