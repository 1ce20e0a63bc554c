/**
 * What a unit's catalogues (disqualification reasons, service posts) have in
 * common: an entry is never deleted, only deactivated, and the list is read
 * by page, text and state.
 */
import { z } from 'zod';
import { pageQueryParams } from './pagination';

/** The state and times of an entry, the last fields of its reply. */
export const catalogueEntryFields = {
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** `?page=&pageSize=&search=&onlyActive=` of a catalogue's list. */
export const catalogueQuerySchema = z.object({
  ...pageQueryParams({ maxSize: 200 }),
  /** Text looked for in the entry's code, name or text. */
  search: z.string().trim().max(120).optional(),
  onlyActive: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});
