/**
 * Tests read the contracts from their sources, not from `dist/`: `npm test` passes right after
 * `npm install` on a fresh clone (no build), and a change to a schema is seen without a rebuild.
 * Each project's vitest.config.ts spreads this into `resolve.alias`.
 */
export declare const contractsFromSource: {
    find: RegExp;
    replacement: string;
}[];
