/**
 * An XLSForm sheet's header row: which column carries what, in which language. Column names are
 * read as pyxform reads them: case-insensitively, with `label::Hausa (ha)`, `label:English` and
 * `label::english` all naming a language, and the older aliases (`jr:count`, `jr:constraintMsg`,
 * `readonly`) taken for the names they stand for.
 */

/** Columns whose text may have one variant per language, and the model field each fills. */
export const TEXT_FIELDS = {
  label: 'text',
  hint: 'hint',
  guidance_hint: 'guidanceHint',
  constraint_message: 'constraintMessage',
  required_message: 'requiredMessage',
} as const;
export type TextColumn = keyof typeof TEXT_FIELDS;
export type TextField = (typeof TEXT_FIELDS)[TextColumn];

/** Columns read as they are, never translated. */
export const PLAIN_COLUMNS = ['type', 'name', 'required', 'relevant', 'constraint', 'calculation', 'choice_filter', 'default', 'read_only', 'appearance', 'repeat_count', 'parameters', 'list_name', 'personal'] as const;
export type PlainColumn = (typeof PLAIN_COLUMNS)[number];

const ALIASES: Record<string, PlainColumn | TextColumn> = {
  'jr:count': 'repeat_count',
  'jr:constraintmsg': 'constraint_message',
  'jr:requiredmsg': 'required_message',
  readonly: 'read_only',
  'list name': 'list_name',
  guidance: 'guidance_hint',
  // Kobo and SurveyCTO forms say `sensitive` for the same mark.
  sensitive: 'personal',
};

/** XLSForm columns Survey Bird knows and does not carry: each non-empty cell is reported. */
const MEDIA = /^(media|image|big-image|audio|video)(\s*::?.*)?$/;
const KNOWN_NOT_CARRIED = /^(body|bind|instance)\s*::|^(trigger|autoplay|save_to|intent|note|hidden|label_position|style)$/;

export interface Language {
  code: string;
  label: string;
}

/** `Hausa (ha)` -> ha / Hausa; `english` -> english / english (the model's rule: the code, else the name lower-cased). */
export function languageOf(name: string): Language {
  const trimmed = name.trim();
  const m = trimmed.match(/^(.*?)\s*\(([^()]+)\)\s*$/);
  if (m && m[2]!.trim()) return { code: m[2]!.trim(), label: m[1]!.trim() || m[2]!.trim() };
  return { code: trimmed.toLowerCase(), label: trimmed };
}

export type ColumnKind =
  | { kind: 'plain'; column: PlainColumn }
  | { kind: 'text'; column: TextColumn; language: Language | null }
  | { kind: 'media' }
  | { kind: 'not-carried' }
  | { kind: 'comment' }
  | { kind: 'unknown' };

export function classify(header: string): ColumnKind {
  const h = header.trim();
  if (!h) return { kind: 'unknown' };
  if (h.startsWith('#')) return { kind: 'comment' };
  const lower = h.toLowerCase();
  const m = lower.match(/^([a-z_:]+?)(?:\s*(::?)\s*(.+))?$/);
  if (m) {
    const base: string = ALIASES[m[1]!] ?? m[1]!;
    if (base in TEXT_FIELDS) {
      const rest = m[3] === undefined ? null : h.slice(h.length - m[3].length);
      return { kind: 'text', column: base as TextColumn, language: rest === null ? null : languageOf(rest) };
    }
    if (m[3] === undefined && (PLAIN_COLUMNS as readonly string[]).includes(base)) return { kind: 'plain', column: base as PlainColumn };
  }
  const alias = ALIASES[lower];
  if (alias && alias in TEXT_FIELDS) return { kind: 'text', column: alias as TextColumn, language: null };
  if (alias) return { kind: 'plain', column: alias as PlainColumn };
  if (MEDIA.test(lower)) return { kind: 'media' };
  if (KNOWN_NOT_CARRIED.test(lower)) return { kind: 'not-carried' };
  return { kind: 'unknown' };
}

/** A header row classified: the index of each plain column, each text column per language (null: no language named). */
export class Header {
  readonly names: string[];
  readonly kinds: ColumnKind[];
  private readonly plain = new Map<PlainColumn, number>();
  /** column -> language code (or '' for the plain column) -> index */
  private readonly text = new Map<TextColumn, Map<string, number>>();
  readonly languages: Language[] = [];

  constructor(cells: string[]) {
    this.names = cells.map((c) => c.trim());
    this.kinds = this.names.map(classify);
    this.kinds.forEach((k, i) => {
      if (k.kind === 'plain' && !this.plain.has(k.column)) this.plain.set(k.column, i);
      if (k.kind === 'text') {
        let byLanguage = this.text.get(k.column);
        if (!byLanguage) this.text.set(k.column, (byLanguage = new Map<string, number>()));
        const code = k.language?.code ?? '';
        if (!byLanguage.has(code)) byLanguage.set(code, i);
        if (k.language && !this.languages.some((l) => l.code === k.language!.code)) this.languages.push(k.language);
      }
    });
  }

  index(column: PlainColumn): number {
    return this.plain.get(column) ?? -1;
  }

  /** Whether any text column has no language named (it is in the default language). */
  get hasPlainText(): boolean {
    return [...this.text.values()].some((m) => m.has(''));
  }

  /**
   * The column of `column` in `language`: the default language reads its own column, else the
   * plain one (pyxform: a column without a language is in the default language).
   */
  textIndex(column: TextColumn, language: string, isDefault: boolean): number {
    const byLanguage = this.text.get(column);
    if (!byLanguage) return -1;
    return byLanguage.get(language) ?? (isDefault ? (byLanguage.get('') ?? -1) : -1);
  }

  /** Indexes read by the text and plain lookups: a cell outside them is reported by its kind. */
  isRead(i: number, languages: Set<string>): boolean {
    const k = this.kinds[i]!;
    if (k.kind === 'plain') return this.plain.get(k.column) === i;
    if (k.kind === 'text') return k.language === null || languages.has(k.language.code);
    return k.kind === 'comment';
  }
}

export const cell = (cells: string[], i: number): string => (i >= 0 ? (cells[i] ?? '').trim() : '');
