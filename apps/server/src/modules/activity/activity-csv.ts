/** CSV cells of the activity export, as the other exports write them (`;`, quotes, no formulas). */

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab / carriage
 * return) as a formula; what a client sent (a route, an error message) must
 * stay text (OWASP CSV injection).
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvField(value: string): string {
  const text = neutraliseFormula(value);
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
