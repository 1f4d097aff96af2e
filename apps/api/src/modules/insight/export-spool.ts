import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { CELL_SEP, type RepeatTable, type RowBatch } from './export-rows.js';

/** The leading columns of a repeat's table: the response's row, the instance around it, its own key, its number. */
export const REPEAT_LEADING = ['S/N', 'Parent key', 'Key', 'Instance'];

/**
 * The repeat tables' rows, kept in temporary files while the main table streams (a zip writes one
 * entry at a time, so a repeat's sheet or CSV can only follow the main one), then read back one
 * table at a time: memory stays flat whatever the number of instances. Each line is one row's
 * cells as JSON (a cell may hold a line break), its S/N and keys already resolved.
 */
export class RepeatSpool {
  private constructor(private readonly dir: string, private readonly files: WriteStream[], readonly tables: readonly RepeatTable[]) {}

  static async open(tables: readonly RepeatTable[]): Promise<RepeatSpool> {
    const dir = await mkdtemp(join(tmpdir(), 'sb-export-'));
    return new RepeatSpool(dir, tables.map((_, i) => createWriteStream(join(dir, `${i}.jsonl`), { mode: 0o600 })), tables);
  }

  /** A batch's instances, given the S/N of the row before the batch's first. */
  async add(batch: RowBatch, serialBefore: number): Promise<void> {
    if (!batch.repeats) return;
    for (const [t, part] of batch.repeats.entries()) {
      if (part.count === 0) continue;
      const cells = part.cells.split(CELL_SEP);
      const width = cells.length / part.count;
      const lines: string[] = [];
      for (let i = 0; i < cells.length; i += width) {
        const sn = serialBefore + Number(cells[i]) + 1;
        const path = cells[i + 1]!;
        const row = [String(sn), path === '' ? String(sn) : `${sn}/${path}`, `${sn}/${cells[i + 2]}`, ...cells.slice(i + 3, i + width)];
        lines.push(JSON.stringify(row));
      }
      const file = this.files[t]!;
      if (!file.write(`${lines.join('\n')}\n`)) await once(file, 'drain');
    }
  }

  /** Closes the files for writing; then `rows(t)` reads a table back. */
  async finish(): Promise<void> {
    await Promise.all(this.files.map(async (f) => {
      f.end();
      await once(f, 'close');
    }));
  }

  /** A table's rows in order: S/N (a number), the parent key, the key, then the marked cells (the instance's number first). */
  async *rows(t: number): AsyncGenerator<string[]> {
    const lines = createInterface({ input: createReadStream(join(this.dir, `${t}.jsonl`), { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) if (line !== '') yield JSON.parse(line) as string[];
  }

  async close(): Promise<void> {
    for (const f of this.files) f.destroy();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Sheet names: at most 31 characters, none of : \ / ? * [ ], unique without regard to case, never the main sheet's. */
export function sheetNames(tables: readonly RepeatTable[], main = 'Responses'): string[] {
  const taken = new Set([main.toLowerCase()]);
  return tables.map((t) => {
    const base = t.header.replace(/[:\\/?*[\]]/g, '_').replace(/^'|'$/g, '_').trim().slice(0, 31) || t.id.slice(0, 31);
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 31 - String(n).length - 1)} ${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** File names inside a zip: the repeat's id (an XLSForm name, safe in any file system), unique. */
export function tableFileNames(tables: readonly RepeatTable[], taken: readonly string[]): string[] {
  const used = new Set(taken.map((n) => n.toLowerCase()));
  return tables.map((t) => {
    const base = t.id.replace(/[^\w-]/g, '_') || 'repeat';
    let name = `${base}.csv`;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}_${n}.csv`;
    used.add(name.toLowerCase());
    return name;
  });
}
