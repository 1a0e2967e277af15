export interface PageRequest {
  page: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  totalCount: number;
}

/** Cursor pagination as Novu's v2 lists: ids as cursors, `next`/`previous` when more exist. */
export interface CursorRequest {
  after?: string;
  before?: string;
  limit: number;
  includeCursor: boolean;
  orderDirection: 'ASC' | 'DESC';
}

export interface CursorPage<T> {
  items: T[];
  next: string | null;
  previous: string | null;
  totalCount: number;
  totalCountCapped: boolean;
}

/** Counts above this are reported as capped, as Novu does. */
export const TOTAL_COUNT_CAP = 50_000;
