import type { CompiledMessage } from '@lingui/message-utils/compileMessage';

/**
 * gettext PO files, the subset the catalogs use: a header entry, `#.` comments and `#,` flags, `msgid`
 * and `msgstr` each on one or more quoted lines. Ids are stable keys (`form.submit`); English is the
 * source catalog, so an id's English text is in `en/messages.po` and each other catalog translates it.
 * Translators' tools (Poedit, Weblate, Crowdin) read these as monolingual PO with `en` as the template.
 */
export interface PoEntry {
  id: string;
  str: string;
  /** `#.` lines: where the text shows and what a placeholder holds. */
  comments: string[];
  /** `#,` flags (`fuzzy`). */
  flags: string[];
}
export interface PoFile {
  /** The header entry's text (`msgid ""`): Language, Content-Type, the draft notice. */
  header: string;
  /** `#` comment lines above the header. */
  headerComments: string[];
  entries: PoEntry[];
}

const unquote = (s: string): string => JSON.parse(s.trim()) as string;
const quote = (s: string): string => JSON.stringify(s);

export function parsePo(text: string): PoFile {
  const blocks = text.replace(/\r\n/g, '\n').split(/\n\s*\n/);
  const file: PoFile = { header: '', headerComments: [], entries: [] };
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    const comments: string[] = [];
    const flags: string[] = [];
    const plain: string[] = [];
    let field: 'id' | 'str' | null = null;
    let id = '';
    let str = '';
    for (const line of lines) {
      if (line.startsWith('#.')) comments.push(line.slice(2).trim());
      else if (line.startsWith('#,')) flags.push(...line.slice(2).split(',').map((f) => f.trim()).filter(Boolean));
      else if (line.startsWith('#')) plain.push(line.replace(/^#\s?/, ''));
      else if (line.startsWith('msgid ')) { field = 'id'; id = unquote(line.slice(6)); }
      else if (line.startsWith('msgstr ')) { field = 'str'; str = unquote(line.slice(7)); }
      else if (line.trim().startsWith('"') && field) {
        if (field === 'id') id += unquote(line);
        else str += unquote(line);
      } else throw new Error(`PO line not understood: ${line}`);
    }
    if (field === null) continue;
    if (id === '') {
      file.header = str;
      file.headerComments = plain;
    } else file.entries.push({ id, str, comments, flags });
  }
  return file;
}

export function serializePo(file: PoFile): string {
  const out: string[] = [];
  const head = [...file.headerComments.map((c) => `# ${c}`), 'msgid ""', 'msgstr ""', ...file.header.split(/(?<=\n)/).filter(Boolean).map(quote)];
  out.push(head.join('\n'));
  for (const e of file.entries) {
    const lines = [...e.comments.map((c) => `#. ${c}`)];
    if (e.flags.length > 0) lines.push(`#, ${e.flags.join(', ')}`);
    lines.push(`msgid ${quote(e.id)}`, `msgstr ${quote(e.str)}`);
    out.push(lines.join('\n'));
  }
  return `${out.join('\n\n')}\n`;
}

/** ICU placeholders of a compiled message (`{name}`, `{count, plural, ...}`): their names, sorted, once each. */
export function placeholders(compiled: CompiledMessage): string[] {
  const names = new Set<string>();
  const walk = (tokens: CompiledMessage): void => {
    for (const token of tokens) {
      if (typeof token === 'string') continue;
      const [name, , format] = token;
      names.add(name);
      if (format && typeof format === 'object') {
        for (const [key, branch] of Object.entries(format as Record<string, unknown>)) if (key !== 'offset' && Array.isArray(branch)) walk(branch as CompiledMessage);
      }
    }
  };
  walk(compiled);
  return [...names].sort();
}
