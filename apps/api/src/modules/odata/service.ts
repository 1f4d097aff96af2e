import type { Deps } from '../../plugins/deps.js';
import { ApiMsg, ODATA_PAGE, type EntitySetQuery } from '@survey-bird/contracts';
import { notFound } from '../../http/errors.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { parseFilter, type Condition } from './filter.js';
import { buildModel, metadataXml, repeatEntities, responseEntity, type ODataModel, type RepeatSet, type ResponseRecord } from './model.js';
import { ODataRepository } from './repository.js';
import { maskAnswers } from '@survey-bird/contracts/personal';
import { hidesPersonal, personalKeys } from '../privacy/personal-keys.js';

/** Responses read a batch at a time while a repeat set is walked (its rows are the instances inside them). */
const BATCH = 200;

type Key = { at: number; id: string };
const keyOf = (token: string | undefined): Key | null => {
  if (token === undefined) return null;
  const dot = token.indexOf('.');
  return { at: Number(token.slice(0, dot)), id: token.slice(dot + 1) };
};
const tokenOf = (r: ResponseRecord) => `${Number(r.created_at)}.${r.id}`;

export interface EntityPage {
  '@odata.context': string;
  '@odata.count'?: number;
  value: Record<string, unknown>[];
  '@odata.nextLink'?: string;
}

/**
 * The OData v4 feed of a survey (read-only, JSON): service document, $metadata, the Responses set
 * and one set per repeat. Rows come oldest received first; a page holds at most ODATA_PAGE rows
 * (fewer when $top says so) and names the next with @odata.nextLink, whose $skiptoken is the last
 * response's (receipt time, id): page 1,000 costs what page 1 does, and rows arriving meanwhile
 * land at the end, so a refresh never skips or repeats one.
 */
export class ODataService {
  private readonly repo: ODataRepository;

  constructor(private readonly deps: Pick<Deps, 'config' | 'db'>) {
    this.repo = new ODataRepository(deps.db.kysely);
  }

  base(surveyId: string): string {
    return `${this.deps.config.publicUrl}/api/v1/odata/${encodeURIComponent(surveyId)}/`;
  }

  private async model(actor: OfficeActor, surveyId: string): Promise<ODataModel> {
    return (await this.read(actor, surveyId)).model;
  }

  /** The model, and the answer keys masked for this reader (an analyst: the personal ones; else none). */
  private async read(actor: OfficeActor, surveyId: string): Promise<{ model: ODataModel; hidden: ReadonlySet<string> | null }> {
    const survey = await this.repo.survey(actor, surveyId);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    const versions = await this.repo.versions(survey.id);
    const hidden = hidesPersonal(actor) ? personalKeys({ versions, current: survey.questions }) : null;
    return { model: buildModel(versions.length > 0 ? versions : [{ version: 1, questions: survey.questions }]), hidden };
  }

  async serviceDocument(actor: OfficeActor, surveyId: string) {
    const model = await this.model(actor, surveyId);
    const sets = ['Responses', ...model.repeats.map((r) => r.name)];
    return { '@odata.context': `${this.base(surveyId)}$metadata`, value: sets.map((name) => ({ name, kind: 'EntitySet', url: name })) };
  }

  async metadata(actor: OfficeActor, surveyId: string): Promise<string> {
    return metadataXml(await this.model(actor, surveyId));
  }

  private async set(actor: OfficeActor, surveyId: string, name: string): Promise<{ model: ODataModel; repeat: RepeatSet | null; shown: (r: ResponseRecord) => ResponseRecord }> {
    const { model, hidden } = await this.read(actor, surveyId);
    // A masked reader's rows have their personal answers replaced before any entity is made of them.
    const shown = hidden === null || hidden.size === 0 ? (r: ResponseRecord) => r : (r: ResponseRecord) => ({ ...r, answers: JSON.stringify(maskAnswers(JSON.parse(r.answers) as Record<string, unknown>, hidden)) });
    const wanted = name.replace(/\(\)$/, '');
    if (wanted === 'Responses') return { model, repeat: null, shown };
    const repeat = model.repeats.find((r) => r.name === wanted);
    if (!repeat) throw notFound(ApiMsg.odataEntitySet);
    return { model, repeat, shown };
  }

  async count(actor: OfficeActor, surveyId: string, name: string, query: EntitySetQuery): Promise<number> {
    const { repeat, shown } = await this.set(actor, surveyId, name);
    const filter = parseFilter(query.$filter);
    if (!repeat) return this.repo.count(surveyId, filter);
    let n = 0;
    for await (const r of this.walk(surveyId, filter, null)) n += repeatEntities(repeat, shown(r)).length;
    return n;
  }

  async page(actor: OfficeActor, surveyId: string, name: string, query: EntitySetQuery): Promise<EntityPage> {
    const { model, repeat, shown } = await this.set(actor, surveyId, name);
    const filter = parseFilter(query.$filter);
    const after = keyOf(query.$skiptoken);
    const top = query.$top;
    const size = Math.min(top ?? ODATA_PAGE, ODATA_PAGE);
    const setName = repeat?.name ?? 'Responses';
    const out: EntityPage = { '@odata.context': `${this.base(surveyId)}$metadata#${setName}`, value: [] };
    if (query.$count === 'true') out['@odata.count'] = await this.count(actor, surveyId, setName, { $filter: query.$filter });
    let last: ResponseRecord | undefined;
    let more = false;
    if (!repeat) {
      const rows = await this.repo.rows(surveyId, filter, after, after ? 0 : (query.$skip ?? 0), size + 1);
      more = rows.length > size;
      const page = rows.slice(0, size);
      out.value = page.map((r) => responseEntity(model, shown(r)));
      last = page.at(-1);
    } else {
      // Instances of whole responses until the page is full; $skip (first page only) counts instances.
      let skip = after ? 0 : (query.$skip ?? 0);
      for await (const r of this.walk(surveyId, filter, after)) {
        if (out.value.length >= size) {
          more = true;
          break;
        }
        let rows = repeatEntities(repeat, shown(r));
        if (skip > 0) {
          const dropped = Math.min(skip, rows.length);
          rows = rows.slice(dropped);
          skip -= dropped;
        }
        // $top cuts inside a response only when it ends the feed; a page otherwise ends on a response boundary.
        if (top !== undefined && out.value.length + rows.length > top) rows = rows.slice(0, top - out.value.length);
        out.value.push(...rows);
        last = r;
      }
    }
    const left = top === undefined ? undefined : top - out.value.length;
    if (more && last && (left === undefined || left > 0)) {
      const next = new URLSearchParams();
      if (query.$filter) next.set('$filter', query.$filter);
      if (query.$count) next.set('$count', query.$count);
      if (left !== undefined) next.set('$top', String(left));
      next.set('$skiptoken', tokenOf(last));
      out['@odata.nextLink'] = `${this.base(surveyId)}${setName}?${next.toString().replace(/%24/g, '$')}`;
    }
    return out;
  }

  /** Every response after `after`, oldest received first, read BATCH at a time. */
  private async *walk(surveyId: string, filter: Condition[], after: Key | null): AsyncGenerator<ResponseRecord> {
    let from = after;
    for (;;) {
      const rows = await this.repo.rows(surveyId, filter, from, 0, BATCH);
      yield* rows;
      if (rows.length < BATCH) return;
      const last = rows.at(-1)!;
      from = { at: Number(last.created_at), id: last.id };
    }
  }
}
