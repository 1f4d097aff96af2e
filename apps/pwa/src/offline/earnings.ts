/**
 * The Earnings screen's entry into the offline layer: what the server said became of each sent
 * response (statuses.ts), the last earnings reply, and the server's list of the account's responses
 * (my-responses.ts). A separate entry, like sync.ts, so the
 * field-user form's chunk does not carry it (scripts/bench/budget.mjs).
 */
export { earningsLines, earningsSnapshot, listStatuses } from './statuses';
export { responsesList, saveResponsesPage } from './my-responses';
