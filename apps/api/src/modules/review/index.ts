import type { ReviewRepository } from './repository.js';

export { ReviewRepository, type ReviewingActor } from './repository.js';

/**
 * What other modules may ask of the review module's reads: which responses a reviewer may act on,
 * one response as the reviewer sees it, and a reviewer's name. Flags and back-checks are given
 * one (plugins/services.ts) instead of opening the review repository themselves.
 */
export type ReviewLookup = Pick<ReviewRepository, 'targets' | 'detail' | 'reviewerName'>;
