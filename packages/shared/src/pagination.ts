/**
 * The one page contract of the API: `?page=1&pageSize=20` in, and
 * `{ items, total, page, pageSize }` out. Every list route builds both from
 * here, so their limits and shape cannot drift apart.
 */
import { z } from 'zod';

/** Page sizes the list screens offer. */
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
export const MAX_PAGE = 100_000;

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
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export type Page<Item> = { items: Item[]; total: number; page: number; pageSize: number };

/** Builds the reply from what the repository found. */
export function pageReply<Item>(
  query: PageQuery,
  found: { items: Item[]; total: number },
): Page<Item> {
  return { items: found.items, total: found.total, page: query.page, pageSize: query.pageSize };
}

/** How many pages `total` items fill (at least one, for the empty list). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
