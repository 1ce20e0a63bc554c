/**
 * CSV and XLSX of a local report, with exactly the numbers of the screen:
 * one row per post and, for the report of every post, a last row with the
 * sum. The CSV is what Excel in pt-BR opens directly: `;` between fields,
 * CRLF between lines and a UTF-8 byte-order mark (lib/csv.ts: every cell
 * quoted, no formulas).
 */
import {
  ALL_LOCALS_ID,
  REPORT_COUNTERS,
  REPORT_EXPORT_HEADER,
  type LocalReportDetail,
} from '@exame/shared';
import { CSV_BOM, csvRow } from '../../lib/csv';

export type ReportTableRow = [string, string, ...number[]];

/** The rows under the header: each post, then the sum when the report covers every post. */
export function reportTableRows(detail: LocalReportDetail): ReportTableRow[] {
  // A post is named as on screen: its own identifier (never the report id) and its name.
  const rows: ReportTableRow[] = detail.locals.map((local) => [
    local.identifier ?? '',
    local.name,
    ...REPORT_COUNTERS.map((counter) => local.report[counter]),
  ]);
  if (detail.id === ALL_LOCALS_ID) {
    rows.push(['Total', detail.name, ...REPORT_COUNTERS.map((counter) => detail.report[counter])]);
  }
  return rows;
}

export function renderCsv(detail: LocalReportDetail): Buffer {
  const rows = [REPORT_EXPORT_HEADER, ...reportTableRows(detail)].map(csvRow);
  return Buffer.from(`${CSV_BOM}${rows.join('')}`, 'utf8');
}

export async function renderXlsx(detail: LocalReportDetail): Promise<Buffer> {
  // Loaded on the first export, not with the server (about a quarter of a second of its start).
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Exame Teórico';
  workbook.title = `Relatório de exames por posto — ${detail.name}`;
  workbook.subject = `Período de ${detail.startDay} a ${detail.endDay}`;
  const sheet = workbook.addWorksheet('Relatório', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.addRow([...REPORT_EXPORT_HEADER]);
  for (const row of reportTableRows(detail)) sheet.addRow(row);
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((column, index) => {
    column.width = index === 0 ? 18 : index === 1 ? 32 : 16;
  });
  const totalRow = detail.id === ALL_LOCALS_ID ? sheet.lastRow : undefined;
  if (totalRow) totalRow.font = { bold: true };
  sheet.autoFilter = {
    from: { row: 1, column: 1 },
    to: { row: 1, column: REPORT_EXPORT_HEADER.length },
  };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
