import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESPONSE_GRAMS_FUNCTION } from '../../apps/api/src/db/migrations/20261128600000_search_grams_postgres.ts';
import { SERVER_NODE_ARGS } from '../support/server-process.ts';
import { PG_BASE, ROOT } from './harness/server.ts';

/** docs/deploy.md promises every command in it is run by scripts/deploy-check.sh: held here. */
const doc = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
const script = readFileSync(join(ROOT, 'scripts/deploy-check.sh'), 'utf8');
const commands = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n').map((l) => l.trim()).filter(Boolean));

describe('docs/deploy.md', () => {
  it('every command in it is a line of scripts/deploy-check.sh', () => {
    expect(commands.length).toBeGreaterThan(15);
    const lines = script.split('\n').map((l) => l.trim());
    expect(commands.filter((c) => !lines.some((l) => l.includes(c)))).toEqual([]);
  });

  it('launches the server with the same node flags everywhere: npm start, the unit, the doc, the batteries', () => {
    const launches = [
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start,
      ...readFileSync(join(ROOT, 'deploy/survey-bird.service'), 'utf8').split('\n').filter((l) => l.startsWith('ExecStart=')),
      ...commands.filter((c) => c.includes('apps/api/dist/server.js')),
    ];
    expect(launches.length).toBeGreaterThanOrEqual(4);
    const flags = SERVER_NODE_ARGS.join(' ');
    expect(launches.filter((l) => !l.includes(`node ${flags} apps/api/dist/server.js`))).toEqual([]);
  });

  it("builds the search index beforehand with the migration's own function", () => {
    const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
    const sqlBlocks = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => flat(m[1]!));
    expect(sqlBlocks.some((b) => b.includes(flat(RESPONSE_GRAMS_FUNCTION)) && b.includes('create index concurrently if not exists responses_grams on responses using gin (response_grams(survey_id, search_text))'))).toBe(true);
  });

  it('scripts/deploy-check.sh runs them: one machine on SQLite, two instances on a fresh PostgreSQL database', () => {
    const r = spawnSync('bash', ['scripts/deploy-check.sh'], { cwd: ROOT, env: { ...process.env, PG_BASE }, encoding: 'utf8', timeout: 280_000 });
    expect(r.status, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`).toBe(0);
    expect(r.stdout).toMatch(/deploy-check: ok/);
    expect(r.stdout).toMatch(/"status":"ready"/);
  });
});
