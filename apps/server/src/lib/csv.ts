/**
 * The one CSV writer of the exports (activity log, exam report): every cell
 * quoted, `;` between cells, CRLF after each row, so the file is what Excel
 * in pt-BR opens directly.
 *
 * Spreadsheets run a cell that starts with = + - @ (or a tab / carriage
 * return) as a formula (OWASP CSV injection). Quoting keeps a value in one
 * cell for a reader that honours quotes, whatever separator it splits on;
 * for one that does not, or that is told another separator (`,`, tab), the
 * formula characters that start the value or follow any separator inside it
 * (`,`, `;`, tab, line breaks) get a leading `'`, so no piece of the value
 * can start a formula either.
 */

/** Characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);
/** Where a reader may start a new cell or line: any separator a person may pick, and line breaks. */
const SEPARATORS = new Set([',', ';', '\t', '\r', '\n']);

/** A text with every formula start (at its beginning or after a separator) made literal. */
export function neutraliseFormulas(value: string): string {
  let text = '';
  // At the value's start or right after a separator (spaces before a formula do not hide it).
  let pieceStart = true;
  for (const char of value) {
    if (pieceStart && FORMULA_START.has(char)) text += "'";
    text += char;
    if (SEPARATORS.has(char)) pieceStart = true;
    else if (char !== ' ') pieceStart = false;
  }
  return text;
}

/** One cell, quoted; a text is neutralised first, a number is written as it is. */
export function csvCell(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : neutraliseFormulas(value);
  return `"${text.replace(/"/g, '""')}"`;
}

/** One row: its cells quoted, `;` between them, CRLF at the end. */
export function csvRow(values: ReadonlyArray<string | number>): string {
  return `${values.map(csvCell).join(';')}\r\n`;
}

/** The byte-order mark that makes Excel read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';
