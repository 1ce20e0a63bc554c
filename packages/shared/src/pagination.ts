/**
 * The one page contract of the API: `?page=1&pageSize=20` in, and
 * `{ items, total, page, pageSize }` out. Every list route builds both from
 * here, so their limits and shape cannot drift apart.
 */
import { z } from 'zod';

/** Page sizes the list screens offer. */
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
export const MAX_PAGE = 100_000;

/**
 * The big lists (exams, audit queue, occurrences, activity) count at most
 * this many rows: past it, the total says "more than" (`totalCapped`), and
 * counting never costs more than this many index entries.
 */
export const TOTAL_COUNT_CAP = 10_000;

/**
 * A name search whose matches the planner expects above this many is not
 * counted: its total is the planner's estimate, said as such ("cerca de
 * 35.000 exames", `totalEstimated`). Counting a common name ("Ana") reads
 * every match; the page itself reads twenty.
 */
export const SEARCH_COUNT_LIMIT = 2_000;

/** An estimate as the screens say it: two significant digits (34 214 -> 34 000). */
export function roundedEstimate(rows: number): number {
  if (rows < 100) return Math.round(rows);
  const scale = 10 ** (Math.floor(Math.log10(rows)) - 1);
  return Math.round(rows / scale) * scale;
}

/** Query parameters `page` and `pageSize`, with the route's default and maximum page size. */
export function pageQueryParams(options: { defaultSize?: number; maxSize?: number } = {}) {
  return {
    page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(options.maxSize ?? 100)
      .default(options.defaultSize ?? 20),
  };
}

export type PageQuery = { page: number; pageSize: number };

/** The reply of a list route: one page of `item`, with the total of every page. */
export function pageOf<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    /** Present and true when there are more than `total` (TOTAL_COUNT_CAP) items. */
    totalCapped: z.boolean().optional(),
    /** Present and true when `total` is the database's estimate, not a count. */
    totalEstimated: z.boolean().optional(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export type Page<Item> = {
  items: Item[];
  total: number;
  totalCapped?: boolean;
  totalEstimated?: boolean;
  page: number;
  pageSize: number;
};

/** Builds the reply from what the repository found. */
export function pageReply<Item>(
  query: PageQuery,
  found: { items: Item[]; total: number; totalCapped?: boolean; totalEstimated?: boolean },
): Page<Item> {
  return {
    items: found.items,
    total: found.total,
    ...(found.totalCapped ? { totalCapped: true } : {}),
    ...(found.totalEstimated ? { totalEstimated: true } : {}),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** A count made with `limit TOTAL_COUNT_CAP + 1`: the total to show and whether there are more. */
export function cappedTotal(counted: number): { total: number; totalCapped?: boolean } {
  return counted > TOTAL_COUNT_CAP
    ? { total: TOTAL_COUNT_CAP, totalCapped: true }
    : { total: counted };
}

/** How many pages `total` items fill (at least one, for the empty list). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
