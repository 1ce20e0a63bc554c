/**
 * Whether the screen is too narrow for a wide table: a phone, a tablet, or a
 * small laptop with the side menu open leave the page under ~950 px. Below
 * 75em (1200 px of window) the lists of the examiner's screens are lists of
 * cards instead of tables, so that nothing scrolls sideways nor is cut.
 */
import { useMediaQuery } from '@mantine/hooks';

export const NARROW_SCREEN_QUERY = '(max-width: 74.99em)';

export function useNarrowScreen(): boolean {
  // Read at the first render: a phone never draws the table first.
  return useMediaQuery(NARROW_SCREEN_QUERY, false, { getInitialValueInEffect: false });
}
