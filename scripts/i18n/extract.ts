#!/usr/bin/env tsx
// `npm run i18n:extract`: brings every catalog (apps/pwa/src/locales/<lang>/messages.po) in line with
// the ids the code uses (`t('id')`, `msgId('id')`). A new id is added to every catalog with an empty
// text and a `#.` note of the file that uses it: English gets its text written in, the translators
// theirs (an empty one fails `npm test`). An id no longer used is reported, and removed with --prune.
// Run it, fill in the English, then hand the other catalogs to translators (docs/translations.md).
import { writeFileSync } from 'node:fs';
import { AppLanguages } from '@survey-bird/contracts';
import { catalogPath, DYNAMIC_PREFIXES, idsInSource, readCatalog } from '../../apps/pwa/i18n/catalogs.ts';
import { serializePo } from '../../apps/pwa/i18n/po.ts';

const prune = process.argv.includes('--prune');
const used = idsInSource();
let added = 0;
const unused = new Set<string>();
for (const lang of AppLanguages) {
  const file = readCatalog(lang);
  const have = new Set(file.entries.map((e) => e.id));
  for (const [id, where] of used) {
    if (have.has(id)) continue;
    file.entries.push({ id, str: '', comments: [`used in ${where}`], flags: [] });
    added++;
  }
  const keep = file.entries.filter((e) => used.has(e.id) || DYNAMIC_PREFIXES.some((p) => e.id.startsWith(p)));
  for (const e of file.entries) if (!keep.includes(e)) unused.add(e.id);
  if (prune) file.entries = keep;
  file.entries.sort((a, b) => a.id.localeCompare(b.id));
  writeFileSync(catalogPath(lang), serializePo(file));
}
console.log(`${used.size} ids in the code; ${added} entries added across ${AppLanguages.length} catalogs.`);
if (unused.size > 0) console.log(`${prune ? 'Removed' : 'Not used by the code (remove with --prune)'}: ${[...unused].join(', ')}`);
