import { fileURLToPath } from 'node:url';
import type { Routes } from '@survey-bird/contracts';
import type { Plugin } from 'vite';
import { slimRoutes } from './src/api/slim-routes';

const ID = 'virtual:route-table';
const SLIM_ROUTES = fileURLToPath(new URL('./src/api/slim-routes.ts', import.meta.url));

/**
 * `virtual:route-table` (src/api/route-table.ts). Given the routes (a build), the slim table is
 * inlined as JSON, so no zod reaches the bundle. Without them (vitest, which reads the contracts
 * from their sources before any build), the module computes it from the contracts when imported.
 */
export function routeTable(routes?: Routes): Plugin {
  return {
    name: 'survey-bird-route-table',
    resolveId: (source) => (source === ID ? `\0${ID}` : undefined),
    load: (resolved) => {
      if (resolved !== `\0${ID}`) return undefined;
      if (routes) return `export default ${JSON.stringify(slimRoutes(routes))};`;
      return `import { routes } from '@survey-bird/contracts';\nimport { slimRoutes } from ${JSON.stringify(SLIM_ROUTES)};\nexport default slimRoutes(routes);`;
    },
  };
}
