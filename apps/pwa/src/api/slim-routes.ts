import type { OfficeRole, RouteName, Routes } from '@survey-bird/contracts';

/**
 * What the browser needs of the contracts route table: method, path, whether it is public (no
 * token sent) and the office roles it serves (to hide what an office user may not do; the server
 * checks). The schemas stay out of the bundle (zod would cost the field-user route ~40 KB). route-table-plugin.ts serves it as the module `virtual:route-table`.
 */
export type RouteTable = {
  [N in RouteName]: { method: Routes[N]['method']; path: string; public?: true; binary?: true; office?: readonly OfficeRole[] };
};

export function slimRoutes(routes: Routes): RouteTable {
  const entries = Object.entries(routes).map(([name, def]) => [
    name,
    { method: def.method, path: def.path, ...(def.access === 'public' ? { public: true } : {}), ...('reply' in def ? {} : { binary: true }), ...('office' in def ? { office: def.office } : {}) },
  ]);
  return Object.fromEntries(entries) as RouteTable;
}
