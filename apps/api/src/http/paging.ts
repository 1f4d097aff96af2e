import { Limits } from '@survey-bird/contracts';

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

export function pageOf(page: number, limit: number = Limits.pageSize): Page {
  return { page, limit, offset: (page - 1) * limit };
}

export function pagingReply(p: Page, totalCount: number) {
  return {
    page: p.page,
    totalCount,
    hasNextPage: p.offset + p.limit < totalCount,
    hasPreviousPage: p.page > 1,
  };
}

/** For LIKE patterns: the caller's text matched literally, case-insensitively. */
export function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
