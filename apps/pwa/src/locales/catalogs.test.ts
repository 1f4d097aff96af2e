import { describe, expect, it } from 'vitest';
import { ApiMsg, FormMsg, Msg, PhotoMsg, RuleMsg } from '@survey-bird/contracts';
import { catalogProblems, DRAFT_NOTICE, idsInSource, readAllCatalogs, SOURCE_LANGUAGE } from '../../i18n/catalogs';
import { parsePo, serializePo } from '../../i18n/po';

const catalogs = readAllCatalogs();
const used = idsInSource();

describe('the app catalogs (src/locales/<lang>/messages.po)', () => {
  it('hold every message the code uses in every language, with the same placeholders as English', () => {
    expect(catalogProblems(catalogs, used.keys())).toEqual([]);
  });

  it('fail on a removed translation, naming its id and language', () => {
    const ha = structuredClone(catalogs.ha!);
    const removed = ha.entries.splice(ha.entries.findIndex((e) => e.id === 'form.submit'), 1);
    expect(removed).toHaveLength(1);
    expect(catalogProblems({ ...catalogs, ha }, used.keys())).toEqual(['ha: "form.submit" is missing']);
  });

  it('fail on a renamed placeholder and on an id the code uses that English lacks', () => {
    const yo = structuredClone(catalogs.yo!);
    yo.entries.find((e) => e.id === 'form.totalQuestions')!.str = 'Àpapọ̀ ìbéèrè: {iye}';
    expect(catalogProblems({ ...catalogs, yo }, [...used.keys(), 'screen.planted'])).toEqual([
      'en: "screen.planted" is used in the code but missing from the catalog (npm run i18n:extract)',
      'yo: "form.totalQuestions" has placeholders {iye} where English has {total}',
    ]);
  });

  it('keep the spec\'s English verbatim for every server and form message they translate', () => {
    const tables: [string, Record<string, unknown>][] = [['', Msg], ['', ApiMsg], ['photo.', PhotoMsg], ['rule.', RuleMsg], ['form.', FormMsg]];
    const english = new Map<string, unknown>();
    for (const [prefix, table] of tables) for (const [k, v] of Object.entries(table)) if (!english.has(prefix + k)) english.set(prefix + k, v);
    for (const e of catalogs[SOURCE_LANGUAGE]!.entries) {
      if (!e.id.startsWith('msg.')) continue;
      const code = e.id.slice(4);
      if (english.has(code)) expect(e.str, e.id).toBe(english.get(code));
    }
  });

  it('mark every translation as a draft awaiting native speakers (or name its reviewer)', () => {
    for (const [lang, file] of Object.entries(catalogs)) {
      if (lang !== SOURCE_LANGUAGE) expect(file.header, lang).toContain(DRAFT_NOTICE);
    }
  });

  it('read back what they write (PO round trip)', () => {
    for (const file of Object.values(catalogs)) expect(parsePo(serializePo(file))).toEqual(file);
  });
});
