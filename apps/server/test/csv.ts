/**
 * Reading an exported CSV the ways a spreadsheet may be told to: with any
 * separator, honouring quotes (RFC 4180) or not (a reader that splits on the
 * separator and only strips the quotes around a piece). A cell a spreadsheet
 * would run as a formula starts with one of FORMULA_STARTS.
 */

export const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];

/** The rows of `text` (a leading BOM dropped), split on `separator`. */
export function readCsv(
  text: string,
  separator: string,
  options: { quotes: boolean } = { quotes: true },
): string[][] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (!options.quotes) {
    return body
      .split(/\r\n|\n|\r/)
      .filter((line) => line !== '')
      .map((line) => line.split(separator).map((piece) => piece.replace(/^"|"$/g, '')));
  }
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (quoted) {
      if (char === '"' && body[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && body[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The cells of `text`, read every way above, that a spreadsheet would run as a formula. */
export function formulaCells(text: string): string[] {
  const found: string[] = [];
  for (const separator of [';', ',', '\t']) {
    for (const quotes of [true, false]) {
      for (const cell of readCsv(text, separator, { quotes }).flat()) {
        // Spaces before a formula do not hide it.
        const start = cell.replace(/^ +/, '');
        if (FORMULA_STARTS.some((prefix) => start.startsWith(prefix))) {
          found.push(`${JSON.stringify(separator)}${quotes ? '' : ' sem aspas'}: ${cell}`);
        }
      }
    }
  }
  return found;
}
