import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * Counts, per table, the writes this process sends through Kysely, so a cache of rows can tell
 * cheaply whether what it holds may have changed (docs/decisions.md, "Session rows are cached").
 * A write counts before it runs and again once it has run, so a read that raced it is not trusted
 * afterwards. A statement whose tables are unknown (raw SQL that is not a plain select, DDL)
 * counts for every table.
 *
 * It sees only this process's Kysely writes: the raw better-sqlite3 write path touches responses
 * alone, and other processes (a second API instance, a CLI) are covered by the caches' own TTL.
 */
export class WriteWatch implements KyselyPlugin {
  private readonly counts = new Map<string, number>();
  private all = 0;
  /** The tables of a write in flight, to count again when it has run. */
  private readonly inFlight = new WeakMap<object, ReadonlySet<string> | 'all'>();

  /** A number that changes whenever one of `tables` may have been written. */
  generation(tables: readonly string[]): number {
    let sum = this.all;
    for (const t of tables) sum += this.counts.get(t) ?? 0;
    return sum;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const tables = writtenTables(args.node);
    if (tables === 'all' || tables.size > 0) {
      this.count(tables);
      this.inFlight.set(args.queryId, tables);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const tables = this.inFlight.get(args.queryId);
    if (tables) this.count(tables);
    return args.result;
  }

  private count(tables: ReadonlySet<string> | 'all'): void {
    if (tables === 'all') this.all++;
    else for (const t of tables) this.counts.set(t, (this.counts.get(t) ?? 0) + 1);
  }
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
/** What a read writes; shared, since every query of the app passes through here. */
const NONE: ReadonlySet<string> = new Set();

/** Every table a write names (its target, joins, subqueries), 'all' when that cannot be known, none for a read. */
export function writtenTables(node: RootOperationNode): ReadonlySet<string> | 'all' {
  if (node.kind === 'SelectQueryNode') return NONE;
  if (node.kind === 'RawNode') return /^\s*(select|pragma\s+\w+\s*$)/i.test(node.sqlFragments.join('?')) ? NONE : 'all';
  if (!WRITES.has(node.kind)) return 'all';
  const found = new Set<string>();
  collect(node, found, 0);
  return found.size > 0 ? found : 'all';
}

function collect(value: unknown, found: Set<string>, depth: number): void {
  if (depth > 40 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) collect(v, found, depth + 1);
    return;
  }
  const node = value as OperationNode & { table?: { identifier?: { name?: unknown } } };
  if (node.kind === 'TableNode' && typeof node.table?.identifier?.name === 'string') found.add(node.table.identifier.name);
  for (const v of Object.values(node)) collect(v, found, depth + 1);
}
