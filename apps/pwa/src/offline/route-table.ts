import table from 'virtual:route-table';

/**
 * The contracts route table without zod (built by vite.config.ts): paths and methods come from
 * the contracts, and neither the page nor the service worker bundles the schemas. Tests replace
 * this module with `slimRoutes(routes)` (vi.mock), as vitest does not run the vite plugin.
 */
export default table;
