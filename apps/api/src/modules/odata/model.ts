import { QuestionType, type StoredQuestion, withQuestionIds } from '@survey-bird/contracts';
import { answerScopes, isChoiceList, isRepeatAnswer, repeatSummary } from '@survey-bird/contracts/form-engine';
import { exportColumns, keysOf, type ExportColumns } from '../insight/export-rows.js';
import { iso } from '../../lib/time.js';

/**
 * The OData model of one survey: the Responses entity type (fixed columns, then one property per
 * question over every version, as the export's columns) and one entity type per repeat of the
 * latest version (its members' answers, one row per instance). Names are OData identifiers made
 * from question ids; types are Edm.Double for number and decimal, Edm.Date for date, Edm.String
 * for everything else (a value that does not fit its type is null, never an error).
 */
export type EdmType = 'Edm.String' | 'Edm.Double' | 'Edm.Date' | 'Edm.DateTimeOffset' | 'Edm.Int32';

export interface Property {
  name: string;
  type: EdmType;
  nullable: boolean;
  /** The question text (a description for people; the name is for tools). */
  label: string;
}

export interface RepeatSet {
  name: string;
  /** The repeat question's text in its parent (the response, or the enclosing repeat's instance). */
  text: string;
  /** The enclosing repeats' texts, outermost first: where the instances are found. */
  path: string[];
  /** Member answer keys (texts) and their properties, in order. */
  members: { key: string; type: string }[];
  properties: Property[];
}

export interface ODataModel {
  columns: ExportColumns;
  properties: Property[];
  repeats: RepeatSet[];
}

/** Fixed columns of the Responses set; question properties follow. */
export const FIXED: Property[] = [
  { name: 'Id', type: 'Edm.String', nullable: false, label: 'Response id' },
  { name: 'FieldUser', type: 'Edm.String', nullable: true, label: 'Field user' },
  { name: 'FieldUserEmail', type: 'Edm.String', nullable: true, label: 'Field user email' },
  { name: 'CapturedAt', type: 'Edm.DateTimeOffset', nullable: true, label: 'Captured at' },
  { name: 'ReceivedAt', type: 'Edm.DateTimeOffset', nullable: false, label: 'Received at' },
  { name: 'Version', type: 'Edm.Int32', nullable: false, label: 'Survey version' },
  { name: 'Revision', type: 'Edm.Int32', nullable: false, label: 'Revision' },
  { name: 'Status', type: 'Edm.String', nullable: false, label: 'Review status' },
];
const REPEAT_FIXED: Property[] = [
  { name: 'Id', type: 'Edm.String', nullable: false, label: 'Instance id' },
  { name: 'ResponseId', type: 'Edm.String', nullable: false, label: 'Response id' },
  { name: 'ParentId', type: 'Edm.String', nullable: false, label: 'Parent (the response, or the enclosing instance)' },
  { name: 'Index', type: 'Edm.Int32', nullable: false, label: 'Instance number' },
  { name: 'ReceivedAt', type: 'Edm.DateTimeOffset', nullable: false, label: 'Received at' },
];

export const edmOf = (type: string): EdmType => (type === QuestionType.number || type === QuestionType.decimal ? 'Edm.Double' : type === QuestionType.date ? 'Edm.Date' : 'Edm.String');

/** An OData SimpleIdentifier: a letter or underscore, then letters, digits, underscores; at most 128. */
export function identifier(raw: string, taken: Set<string>): string {
  let base = raw.normalize('NFKD').replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 120) || 'q';
  if (!/^[A-Za-z_]/.test(base)) base = `q_${base}`;
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}_${n}`;
  taken.add(name.toLowerCase());
  return name;
}

export function buildModel(versions: { version: number; questions: string }[]): ODataModel {
  const parsed = versions.map((v) => ({ version: v.version, questions: withQuestionIds(JSON.parse(v.questions) as StoredQuestion[]) }));
  const columns = exportColumns(parsed);
  const taken = new Set(FIXED.map((p) => p.name.toLowerCase()));
  const properties = columns.ids.map((id, c) => ({ name: identifier(id, taken), type: edmOf(columns.types[c]!), nullable: true, label: columns.headers[c]! }));

  const latest = parsed.at(-1)?.questions ?? [];
  const scopes = answerScopes(latest);
  const sets = new Set(['responses']);
  const repeats: RepeatSet[] = [];
  const byId = new Map(latest.map((q) => [q.id, q]));
  latest.forEach((q, i) => {
    if (q.type !== QuestionType.repeat || q.id === undefined) return;
    const path: string[] = [];
    for (let scope = scopes[i]!; scope !== ''; ) {
      const outer = byId.get(scope);
      if (!outer) break;
      path.unshift(outer.text);
      scope = scopes[latest.indexOf(outer)]!;
    }
    const own = new Set(REPEAT_FIXED.map((p) => p.name.toLowerCase()));
    const members = latest.filter((m, j) => scopes[j] === q.id && m.type !== QuestionType.group);
    repeats.push({
      name: identifier(`Responses_${q.id}`, sets),
      text: q.text,
      path,
      members: members.map((m) => ({ key: m.text, type: m.type })),
      properties: [...REPEAT_FIXED, ...members.map((m) => ({ name: identifier(m.id ?? m.text, own), type: edmOf(m.type), nullable: true, label: m.text }))],
    });
  });
  return { columns, properties, repeats };
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** One answer as its property's JSON value: null when missing or when it does not fit the type. */
export function valueOf(answer: unknown, type: EdmType): string | number | null {
  if (answer === undefined || answer === null) return null;
  if (isRepeatAnswer(answer)) return type === 'Edm.String' ? repeatSummary(answer.length) : null;
  if (isChoiceList(answer)) return type === 'Edm.String' ? answer.join(', ') : null;
  if (typeof answer !== 'string' && typeof answer !== 'number' && typeof answer !== 'boolean') return null;
  const text = String(answer);
  if (type === 'Edm.Double') return NUMBER.test(text.trim()) && Number.isFinite(Number(text)) ? Number(text) : null;
  if (type === 'Edm.Date') return DATE.test(text) ? text : null;
  return text;
}

export interface ResponseRecord {
  id: string;
  answers: string;
  created_at: number | string;
  captured_at: number | string | null;
  version: number | string;
  revision: number | string;
  status: string;
  full_name: string | null;
  email: string | null;
}

const own = (o: Record<string, unknown>, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

/** A response as a Responses entity. */
export function responseEntity(model: ODataModel, r: ResponseRecord): Record<string, unknown> {
  const answers = JSON.parse(r.answers) as Record<string, unknown>;
  const keys = keysOf(model.columns, Number(r.version));
  const entity: Record<string, unknown> = {
    Id: r.id, FieldUser: r.full_name, FieldUserEmail: r.email, CapturedAt: iso(r.captured_at), ReceivedAt: iso(r.created_at),
    Version: Number(r.version), Revision: Number(r.revision), Status: r.status,
  };
  model.properties.forEach((p, c) => {
    const key = keys[c];
    entity[p.name] = key ? valueOf(own(answers, key.text), p.type) : null;
  });
  return entity;
}

/** A response's instances of one repeat as entities (nested repeats walk their parents' instances). */
export function repeatEntities(set: RepeatSet, r: ResponseRecord): Record<string, unknown>[] {
  const answers = JSON.parse(r.answers) as Record<string, unknown>;
  let parents: { id: string; answers: Record<string, unknown> }[] = [{ id: r.id, answers }];
  for (const outer of set.path) {
    parents = parents.flatMap((p) => {
      const instances = own(p.answers, outer);
      return isRepeatAnswer(instances) ? instances.map((a, i) => ({ id: `${p.id}/${outer}/${i + 1}`, answers: a })) : [];
    });
  }
  const received = iso(r.created_at);
  return parents.flatMap((p) => {
    const instances = own(p.answers, set.text);
    if (!isRepeatAnswer(instances)) return [];
    return instances.map((a, i) => {
      const entity: Record<string, unknown> = { Id: `${p.id}/${set.text}/${i + 1}`, ResponseId: r.id, ParentId: p.id, Index: i + 1, ReceivedAt: received };
      set.members.forEach((m, j) => {
        const p = set.properties[REPEAT_FIXED.length + j]!;
        entity[p.name] = valueOf(own(a, m.key), p.type);
      });
      return entity;
    });
  });
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function entityType(name: string, properties: Property[]): string {
  const props = properties.map((p) => `<Property Name="${p.name}" Type="${p.type}"${p.nullable ? '' : ' Nullable="false"'}><Annotation Term="Core.Description" String="${xml(p.label)}"/></Property>`).join('');
  return `<EntityType Name="${name}"><Key><PropertyRef Name="Id"/></Key>${props}</EntityType>`;
}

export const NAMESPACE = 'SurveyBird';

/** The CSDL XML of $metadata. */
export function metadataXml(model: ODataModel): string {
  const sets = [`<EntitySet Name="Responses" EntityType="${NAMESPACE}.Response"/>`, ...model.repeats.map((r) => `<EntitySet Name="${r.name}" EntityType="${NAMESPACE}.${r.name}"/>`)];
  return '<?xml version="1.0" encoding="UTF-8"?>'
    + '<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">'
    + '<edmx:Reference Uri="https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Core.V1.xml"><edmx:Include Namespace="Org.OData.Core.V1" Alias="Core"/></edmx:Reference>'
    + `<edmx:DataServices><Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="${NAMESPACE}">`
    + entityType('Response', [...FIXED, ...model.properties])
    + model.repeats.map((r) => entityType(r.name, r.properties)).join('')
    + `<EntityContainer Name="Survey">${sets.join('')}</EntityContainer>`
    + '</Schema></edmx:DataServices></edmx:Edmx>';
}
