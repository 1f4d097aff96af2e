import type { RouteName, Routes } from '@survey-bird/contracts';

/**
 * What the browser needs of the contracts route table: method, path and whether it is public (no
 * token sent). Roles are the server's to check; the schemas stay out of the bundle (zod would cost
 * the field-user route ~40 KB). route-table-plugin.ts serves it as the module `virtual:route-table`.
 */
export type RouteTable = {
  [N in RouteName]: { method: Routes[N]['method']; path: string; public?: true; binary?: true };
};

export function slimRoutes(routes: Routes): RouteTable {
  const entries = Object.entries(routes).map(([name, def]) => [
    name,
    { method: def.method, path: def.path, ...(def.access === 'public' ? { public: true } : {}), ...('reply' in def ? {} : { binary: true }) },
  ]);
  return Object.fromEntries(entries) as RouteTable;
}
