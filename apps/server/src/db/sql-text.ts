/** Text helpers for SQL built by the repositories. */

/** Escapes `%`, `_` and `\` so a user's text matches literally inside LIKE/ILIKE. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * A text in the form of `exams.search_name` (migration 0028): lower case and
 * without accents, so "conceição" finds "Conceicao" and "CONCEIÇÃO".
 */
export function searchForm(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** `%text%` for a LIKE over a searchable form: any part of it, without case or accents. */
export function containing(value: string): string {
  return `%${escapeLike(searchForm(value))}%`;
}
