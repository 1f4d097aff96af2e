import table from 'virtual:route-table';

/**
 * The contracts route table without zod: paths and methods come from the contracts, and neither
 * the page nor the service worker bundles the schemas. `virtual:route-table` is made by
 * route-table-plugin.ts: inlined at build time, and from the contracts' sources under vitest.
 */
export type { RouteTable } from './slim-routes';
export default table;
