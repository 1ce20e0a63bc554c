/**
 * The activity export's cells, written by the one CSV writer of the exports
 * (lib/csv.ts): every cell quoted, every formula start neutralised, whatever
 * separator the file is read with.
 */
import { csvCell } from '../../lib/csv';

export function csvField(value: string): string {
  return csvCell(value);
}
