/** Text helpers for SQL built by the repositories. */

/** Escapes `%`, `_` and `\` so a user's text matches literally inside LIKE/ILIKE. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}
