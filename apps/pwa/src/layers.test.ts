// @vitest-environment node
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import direction of eslint.config.js (session <- lib <- api/offline/ui <- shell/features <-
 * routes; offline/ through its index.ts) refuses a planted upward import and lets the downward
 * ones through. The code is linted as if it were a file at `path`; only that rule runs, without
 * type information, so the check takes a second, not a type-aware lint of the whole app.
 */
const repoRoot = join(import.meta.dirname, '../../..');
const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfig: { languageOptions: { parserOptions: { project: null, projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

async function refused(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const planted = 1;\n`, { filePath: join(repoRoot, 'apps/pwa/src', path) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('the PWA layers lint rule', () => {
  // Loading eslint.config.js and its plugins takes seconds on a busy machine: once, before the cases.
  beforeAll(() => refused('offline/planted.ts', ''), 120_000);

  it('fails on an upward import planted in offline/', async () => {
    const session = await refused('offline/planted.ts', `import { useSession } from '../features/accounts/session';\nvoid useSession;`);
    expect(session).toHaveLength(1);
    expect(session[0]).toMatch(/^no-restricted-imports: .*may not import from .*features/);
    expect(await refused('offline/planted.ts', `import { Header } from '../shell/Header';\nvoid Header;`)).toHaveLength(1);
    expect(await refused('offline/photos/planted.ts', `import type { AppShell } from '../../routes/AppShell';\nexport type A = typeof AppShell;`)).toHaveLength(1);
  });

  it('fails on an upward import from each lower layer', async () => {
    expect(await refused('session/planted.ts', `import { createStore } from '../lib/store';\nvoid createStore;`)).toHaveLength(1);
    expect(await refused('lib/planted.ts', `import { api } from '../api';\nvoid api;`)).toHaveLength(1);
    expect(await refused('api/planted.ts', `import { paths } from '../features/team/paging';\nvoid paths;`)).toHaveLength(1);
    expect(await refused('ui/planted.ts', `import { SidePane } from '../shell/SidePane';\nvoid SidePane;`)).toHaveLength(1);
    expect(await refused('features/team/planted.ts', `export { routeTree } from '../../routes/router';`)).toHaveLength(1);
  });

  it('lets screens into offline/ through its index only', async () => {
    expect(await refused('features/capture/planted.ts', `import { db } from '../../offline/db';\nvoid db;`)).toEqual([expect.stringMatching(/through its index\.ts/)]);
    expect(await refused('shell/planted.ts', `import { enqueueResponse } from '../offline/outbox';\nvoid enqueueResponse;`)).toHaveLength(1);
    expect(await refused('features/capture/planted.ts', `import { enqueueResponse } from '../../offline';\nimport { earningsLines } from '../../offline/earnings';\nvoid enqueueResponse; void earningsLines;`)).toEqual([]);
    // A test may set the store up behind the index.
    expect(await refused('features/capture/planted.test.ts', `import { db } from '../../offline/db';\nvoid db;`)).toEqual([]);
  });

  it('passes imports that point down or stay in their layer', async () => {
    const ok = [
      ['offline/planted.ts', `import { accountKey } from '../session/account-key';\nimport { whenIdle } from '../lib/idle';\nimport { send } from '../api/transport';\nimport { db } from './db';\nvoid accountKey; void whenIdle; void send; void db;`],
      ['features/team/planted.ts', `import { Header } from '../../shell/Header';\nimport { useSession } from '../accounts/session';\nimport { paths } from '../../lib/paths';\nvoid Header; void useSession; void paths;`],
      ['routes/planted.ts', `import { SidePane } from '../shell/SidePane';\nimport { QuestionsPage } from '../features/capture/QuestionsPage';\nvoid SidePane; void QuestionsPage;`],
    ];
    for (const [path, code] of ok) expect(await refused(path!, code!)).toEqual([]);
  });
});
