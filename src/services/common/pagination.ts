/** A window of a list: `limit` items starting at `offset` (0-based), as every list operation takes. */
export interface PageRequest {
  offset: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  totalCount: number;
  offset: number;
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
