import type { StoredQuestion } from '@survey-bird/contracts';
import { constraintExpression, showIfExpression } from './xlsform-rules.js';

/**
 * A survey written as an XLSForm (survey, choices and settings sheets) that parseXlsform reads back
 * into the same questions: types, containers, expressions, languages and choice lists as
 * xlsform.ts reads them. Survey Bird's own types travel as ODK's nearest type plus an appearance
 * ODK ignores or shares (phone, email; signature and new for images): see docs/decisions.md ("Forms").
 */
export interface ExportedSurvey {
  title: string;
  version: number;
  formId: string;
  instanceName?: string | null | undefined;
  languages?: { code: string; label: string }[] | undefined;
  defaultLanguage?: string | undefined;
  questions: StoredQuestion[];
}

type Choice = NonNullable<StoredQuestion['choices']>[number];
type Cells = Record<string, string>;

const TYPE_OUT: Record<string, string> = {
  'text answer': 'text',
  phone: 'text',
  email: 'text',
  number: 'integer',
  decimal: 'decimal',
  date: 'date',
  time: 'time',
  datetime: 'dateTime',
  image: 'image',
  signature: 'image',
  'live images': 'image',
  'live location': 'geopoint',
  note: 'note',
  barcode: 'barcode',
  calculate: 'calculate',
  acknowledge: 'acknowledge',
  range: 'range',
  geotrace: 'geotrace',
  geoshape: 'geoshape',
  audio: 'audio',
  video: 'video',
  file: 'file',
  start: 'start',
  end: 'end',
  today: 'today',
  deviceid: 'deviceid',
  username: 'username',
  'email (metadata)': 'email',
  files: 'file',
};
/** The appearance word that carries the type back on import (xlsform.ts reads the same words). */
const APPEARANCE_OF: Record<string, string> = { phone: 'phone', email: 'email', signature: 'signature', 'live images': 'new' };

const TEXT_COLUMNS = [
  ['label', 'text'],
  ['hint', 'hint'],
  ['guidance_hint', 'guidanceHint'],
  ['required_message', 'requiredMessage'],
  ['constraint_message', 'constraintMessage'],
] as const;
const PLAIN_AFTER = ['required', 'relevant', 'constraint', 'calculation', 'choice_filter', 'default', 'read_only', 'appearance', 'repeat_count', 'parameters', 'personal'] as const;

/** The rows of the three sheets: header first, only the columns some row uses. */
export function xlsformSheets(survey: ExportedSurvey, datasetOptions: (q: StoredQuestion) => string[]): Record<'survey' | 'choices' | 'settings', string[][]> {
  const languages = survey.languages && survey.languages.length > 0 ? survey.languages : [{ code: 'default', label: 'Default' }];
  const defaultCode = survey.defaultLanguage ?? languages[0]!.code;
  const ordered = [...languages.filter((l) => l.code === defaultCode), ...languages.filter((l) => l.code !== defaultCode)];
  /** `label` in the unnamed default language, else `label::Hausa (ha)`. */
  const columnOf = (base: string, lang: { code: string; label: string }) => (lang.code === 'default' ? base : `${base}::${lang.label} (${lang.code})`);

  const rows: Cells[] = [];
  const choiceRows: Cells[] = [];
  const extraChoiceColumns: string[] = [];
  const listByKey = new Map<string, string>();
  const listNames = new Set<string>();
  const open: StoredQuestion[] = [];
  const close = () => {
    const q = open.pop()!;
    rows.push({ type: q.type === 'repeat' ? 'end_repeat' : 'end_group', name: '' });
  };

  for (const q of survey.questions) {
    while (open.length > 0 && open.at(-1)!.id !== q.parent) close();
    const row: Cells = { name: q.id };
    const texts = (lang: { code: string }): Partial<Record<(typeof TEXT_COLUMNS)[number][1], string | undefined>> => {
      if (lang.code === defaultCode) return { text: q.text, hint: q.hint, guidanceHint: q.guidanceHint, requiredMessage: q.requiredMessage, constraintMessage: q.constraintMessage ?? q.constraint?.message };
      return q.translations?.[lang.code] ?? {};
    };
    for (const lang of ordered) {
      const t = texts(lang);
      for (const [column, field] of TEXT_COLUMNS) {
        const v = t[field];
        if (v) row[columnOf(column, lang)] = v;
      }
    }
    if (q.type === 'group' || q.type === 'repeat') {
      row.type = q.type === 'repeat' ? 'begin_repeat' : 'begin_group';
      if (q.repeatCount !== undefined) row.repeat_count = String(q.repeatCount);
      if (q.repeat && (q.repeat.min !== undefined || q.repeat.max !== undefined)) row.parameters = [q.repeat.min !== undefined ? `min=${q.repeat.min}` : '', q.repeat.max !== undefined ? `max=${q.repeat.max}` : ''].filter(Boolean).join(' ');
      open.push(q);
    } else if (q.type === 'select' || q.type === 'checkbox' || q.type === 'rank' || q.type === 'select (> 50 dataset)') {
      const choices: Choice[] = q.choices ?? (q.options.length > 0 ? q.options : datasetOptions(q)).map((o) => ({ name: o, label: o }));
      const key = JSON.stringify(choices);
      let list = listByKey.get(key);
      if (!list) {
        list = q.id;
        for (let n = 2; listNames.has(list); n++) list = `${q.id}_${n}`;
        listNames.add(list);
        listByKey.set(key, list);
        for (const c of choices) {
          const cr: Cells = { list_name: list, name: c.name };
          for (const lang of ordered) {
            const label = lang.code === defaultCode ? c.label : c.labels?.[lang.code];
            if (label) cr[columnOf('label', lang)] = label;
          }
          for (const [k, v] of Object.entries(c.columns ?? {})) {
            if (!extraChoiceColumns.includes(k)) extraChoiceColumns.push(k);
            cr[k] = v;
          }
          choiceRows.push(cr);
        }
      }
      row.type = `${q.type === 'checkbox' ? 'select_multiple' : q.type === 'rank' ? 'rank' : 'select_one'} ${list}`;
      if (q.choiceFilter) row.choice_filter = q.choiceFilter;
    } else {
      row.type = TYPE_OUT[q.type] ?? q.type;
      if (q.range) row.parameters = `start=${q.range.start} end=${q.range.end} step=${q.range.step}`;
    }
    if (q.compulsory) row.required = 'yes';
    else if (q.requiredExpr) row.required = q.requiredExpr;
    const relevant = [q.showIf ? showIfExpression(q.showIf) : '', q.relevantExpr ?? ''].filter(Boolean);
    if (relevant.length > 0) row.relevant = relevant.length === 1 ? relevant[0]! : relevant.map((r) => `(${r})`).join(' and ');
    const constraint = [q.constraint ? constraintExpression(q.constraint, q.type) : '', q.constraintExpr ?? ''].filter(Boolean);
    if (constraint.length > 0) row.constraint = constraint.length === 1 ? constraint[0]! : constraint.map((c) => `(${c})`).join(' and ');
    if (q.calculation) row.calculation = q.calculation;
    if (q.default) row.default = q.default;
    if (q.readOnly === true) row.read_only = 'yes';
    else if (typeof q.readOnly === 'string' && q.readOnly) row.read_only = q.readOnly;
    const appearance = [APPEARANCE_OF[q.type] ?? '', q.appearance ?? ''].filter(Boolean).join(' ');
    if (appearance) row.appearance = appearance;
    if (q.personal !== undefined) row.personal = q.personal ? 'yes' : 'no';
    rows.push(row);
  }
  while (open.length > 0) close();

  const textHeaders = TEXT_COLUMNS.flatMap(([column]) => ordered.map((l) => columnOf(column, l)));
  const surveyHeader = ['type', 'name', ...textHeaders, ...PLAIN_AFTER].filter((h, i) => i < 2 || rows.some((r) => r[h]));
  const choiceHeader = ['list_name', 'name', ...ordered.map((l) => columnOf('label', l)), ...extraChoiceColumns];
  const settings: Cells = { form_title: survey.title, form_id: survey.formId, version: String(survey.version) };
  if (survey.languages && survey.languages.length > 0 && defaultCode !== 'default') {
    const lang = ordered[0]!;
    settings.default_language = `${lang.label} (${lang.code})`;
  }
  if (survey.instanceName) settings.instance_name = survey.instanceName;
  const settingsHeader = Object.keys(settings);
  return {
    survey: [surveyHeader, ...rows.map((r) => surveyHeader.map((h) => r[h] ?? ''))],
    choices: [choiceHeader, ...choiceRows.map((r) => choiceHeader.map((h) => r[h] ?? ''))],
    settings: [settingsHeader, settingsHeader.map((h) => settings[h]!)],
  };
}

/** A form_id for a survey that has none: its title as an XLSForm name, else "survey". */
export function formIdOf(title: string): string {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60);
  return /^[a-z]/.test(slug) ? slug : `survey_${slug}`.replace(/_+$/, '');
}

export { XLSX_MIME } from '../../lib/spreadsheet.js';

/** `{title}.xlsx` as an attachment; RFC 5987 `filename*` carries a non-ASCII title. */
export function attachmentName(title: string): string {
  const name = `${title.replace(/\p{Cc}/gu, '').replace(/[/\\]/g, '_').trim() || 'survey'}.xlsx`;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === name ? `attachment; filename="${name}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
