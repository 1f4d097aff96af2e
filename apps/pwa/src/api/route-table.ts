import type { Access, RouteName, Routes } from '@survey-bird/contracts';

/**
 * What the browser needs of the contracts route table: method, path and access. The schemas stay
 * out of the bundle (zod would cost the field-user route ~40 KB); vite.config.ts builds this table
 * from the contracts at build time as the module `virtual:route-table`.
 */
export type RouteTable = {
  [N in RouteName]: { method: Routes[N]['method']; path: string; access: Access; binary?: true };
};

export function slimRoutes(routes: Routes): RouteTable {
  const entries = Object.entries(routes).map(([name, def]) => [
    name,
    { method: def.method, path: def.path, access: def.access, ...('reply' in def ? {} : { binary: true }) },
  ]);
  return Object.fromEntries(entries) as RouteTable;
}
