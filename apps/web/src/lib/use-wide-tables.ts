/**
 * Whether the screens with wide tables (audit queue, report, the exams behind
 * a counter) show them as tables or as lists of cards. From 80em (1280 px),
 * the side menu leaves a page about 1000 px: their tables fit without
 * scrolling sideways. Below that (tablets, phones, narrow windows) each row
 * becomes a card, so nothing scrolls sideways and nothing is cut.
 */
import { useMediaQuery } from '@mantine/hooks';

/** Asked as "narrow?", so that without media queries (tests, old engines) the tables show. */
export const NARROW_TABLES_QUERY = '(max-width: 79.99em)';

export function useWideTables(): boolean {
  return !useMediaQuery(NARROW_TABLES_QUERY, false, { getInitialValueInEffect: false });
}
