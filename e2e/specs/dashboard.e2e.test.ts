/**
 * The service-post dashboard and the per-post report in Chromium, on the
 * real server with the demo seed (8 posts, ~1200 exams from 30 days ago to 7
 * days ahead): the Portuguese date picker, the counters against the API, the
 * search, the report page and its XLSX read back with exceljs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  addDays,
  dayInZone,
  REPORT_COUNTER_LABELS,
  REPORT_COUNTERS,
  REPORT_EXPORT_HEADER,
  type LocalReport,
  type LocalReportDetail,
} from '@exame/shared';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, signIn } from '../support/auth';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

const MONTHS = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];

/** Mantine's day label in pt-BR: `3 março 2026`. */
function dayLabel(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return `${date} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

function monthIndex(day: string): number {
  const [year, month] = day.split('-').map(Number);
  return (year ?? 0) * 12 + (month ?? 1) - 1;
}

/** The number a cell shows, after any text kept for screen readers ("…: 1.234"). */
function screenNumber(text: string | null): number {
  const shown = /(\d[\d.]*)\s*$/.exec(text ?? '')?.[1];
  return shown === undefined ? Number.NaN : Number(shown.replace(/\./g, ''));
}

/** The number a report cell's button carries (the cell may add what came from metadata). */
async function cellValue(row: Locator, counter: string): Promise<number> {
  const value = await row
    .locator(`td[data-counter="${counter}"] [data-counter-value]`)
    .getAttribute('data-counter-value');
  return Number(value);
}

async function readCardCounters(page: Page, localId: string) {
  const card = page.locator(`[data-testid="local-card"][data-local-id="${localId}"]`);
  const values: Record<string, number> = {};
  for (const counter of REPORT_COUNTERS) {
    if (counter === 'total') {
      values.total = screenNumber(await card.locator('.mantine-Badge-label').first().textContent());
      continue;
    }
    values[counter] = screenNumber(
      await card.locator(`[data-counter="${counter}"] dd`).textContent(),
    );
  }
  return values;
}

describe('service-post dashboard and report in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-e2e-downloads-'));

  beforeAll(async () => {
    server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
    context = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      locale: 'pt-BR',
      timezoneId: 'America/Sao_Paulo',
      acceptDownloads: true,
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    fs.rmSync(downloads, { recursive: true, force: true });
  });

  it('ADMIN picks a period in Portuguese, reads the counters, searches, opens the report and its XLSX', async () => {
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Postos de atendimento' }).waitFor();
    await page.getByTestId('local-card').first().waitFor();

    // The period: from 14 days ago to yesterday, in São Paulo days.
    const today = dayInZone(new Date());
    const startDay = addDays(today, -14);
    const endDay = addDays(today, -1);

    await page.getByRole('button', { name: 'Período', exact: true }).click();
    const dropdown = page.locator('[data-dates-dropdown]');
    await dropdown.waitFor();
    const [year, month] = today.split('-').map(Number);
    await dropdown.getByText(`${MONTHS[(month ?? 1) - 1]} ${year}`, { exact: true }).waitFor();
    const headers = await dropdown.locator('thead th').allTextContents();
    expect(headers).toEqual(['Sm', 'dom', 'seg', 'ter', 'qua', 'qui', 'sex', 'sáb']);
    await screenshot(page, 'dashboard-date-picker');

    for (let shown = monthIndex(today); shown > monthIndex(startDay); shown -= 1) {
      await dropdown.getByRole('button', { name: 'Mês anterior' }).click();
    }
    await dropdown.getByRole('button', { name: dayLabel(startDay), exact: true }).click();
    for (let shown = monthIndex(startDay); shown < monthIndex(endDay); shown += 1) {
      await dropdown.getByRole('button', { name: 'Próximo mês' }).click();
    }
    const reportResponse = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/ExamReport' &&
        new URL(response.url()).searchParams.get('endDate') === endDay,
    );
    await dropdown.getByRole('button', { name: dayLabel(endDay), exact: true }).click();
    const response = await reportResponse;
    expect(new URL(response.url()).searchParams.get('startDate')).toBe(startDay);
    const reports = (await response.json()) as LocalReport[];
    expect(reports.length).toBe(8);
    const format = (day: string) => day.split('-').reverse().join('/');
    await expect
      .poll(() => page.getByRole('button', { name: 'Período', exact: true }).textContent())
      .toContain(`${format(startDay)} – ${format(endDay)}`);

    // Every card shows what the API counted, and the summary is their sum.
    await expect.poll(() => page.getByTestId('local-card').count()).toBe(8);
    for (const local of reports) {
      expect(await readCardCounters(page, local.id)).toEqual(local.report);
    }
    const total = reports.reduce((sum, local) => sum + local.report.total, 0);
    expect(
      screenNumber(await page.getByTestId('resume-total').locator('p').nth(1).textContent()),
    ).toBe(total);
    await screenshot(page, 'dashboard');

    // Search a post.
    await page.getByRole('textbox', { name: 'Buscar posto' }).fill('rodoviaria');
    await expect.poll(() => page.getByTestId('local-card').count()).toBe(1);
    const card = page.getByTestId('local-card');
    expect(await card.getAttribute('data-local-id')).toBe('DF.POSTO02');
    await card.getByText('Posto Rodoviária', { exact: true }).waitFor();
    const onScreen = await readCardCounters(page, 'DF.POSTO02');
    await screenshot(page, 'dashboard-search');

    // Its report: the same numbers, one click from the exams behind them.
    await card.getByRole('link', { name: 'Abrir o relatório de Posto Rodoviária' }).click();
    await page.waitForURL(
      (url) =>
        url.pathname === '/exam-report/DF.POSTO02' &&
        url.searchParams.get('startDate') === startDay &&
        url.searchParams.get('endDate') === endDay,
    );
    await page.getByRole('heading', { name: 'Posto Rodoviária', level: 1 }).waitFor();
    const row = page.locator('[data-testid="report-table"] tbody tr[data-local-id="DF.POSTO02"]');
    await row.waitFor();
    const tableValues: Record<string, number> = {};
    for (const counter of REPORT_COUNTERS) tableValues[counter] = await cellValue(row, counter);
    expect(tableValues).toEqual(onScreen);

    await row
      .getByRole('button', { name: new RegExp(`^${REPORT_COUNTER_LABELS.approved} de Posto`) })
      .click();
    const exams = page.getByTestId('counter-exams');
    await exams.waitFor();
    await page
      .getByText(`${tableValues.approved} exames · valor do contador: ${tableValues.approved}`)
      .waitFor();
    expect(await exams.locator('tbody tr').count()).toBe(Math.min(20, tableValues.approved ?? 0));
    expect(await exams.locator('tbody tr').first().textContent()).toContain('Aprovado');
    await screenshot(page, 'exam-report');

    const downloadEvent = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Baixar XLSX' }).click();
    const download = await downloadEvent;
    // The file names the post as the screens do: its own identifier, not the report id.
    expect(download.suggestedFilename()).toBe(
      `relatorio-postos-DEMO.POSTO02-${startDay}-a-${endDay}.xlsx`,
    );
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.getWorksheet('Relatório');
    const rows: unknown[][] = [];
    sheet?.eachRow((entry) => rows.push((entry.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(REPORT_EXPORT_HEADER);
    expect(rows.slice(1)).toEqual([
      [
        'DEMO.POSTO02',
        'Posto Rodoviária',
        ...REPORT_COUNTERS.map((counter) => tableValues[counter]),
      ],
    ]);

    // The same file the API gives for the period matches the report the screen used.
    const detail = (await page.evaluate(
      async ([from, to]) => {
        const user = JSON.parse(localStorage.getItem('EP_ADMIN_USER') ?? '{}') as { token: string };
        const url = `/api/ExamReport/DF.POSTO02?startDate=${from}&endDate=${to}`;
        const answer = await fetch(url, { headers: { authorization: `Bearer ${user.token}` } });
        return answer.json();
      },
      [startDay, endDay],
    )) as LocalReportDetail;
    expect(detail.report).toEqual(tableValues);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the report of every post ends with their sum, and its exams are one click away', async () => {
    const ownContext = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      locale: 'pt-BR',
      timezoneId: 'America/Sao_Paulo',
    });
    const page = await ownContext.newPage();
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    const today = dayInZone(new Date());
    const startDay = addDays(today, -30);
    await page.goto(`${server.baseUrl}/exam-report/all?startDate=${startDay}&endDate=${today}`);
    await page.getByRole('heading', { name: 'Todos os postos', level: 1 }).waitFor();
    const rows = page.locator('[data-testid="report-table"] tbody tr');
    await expect.poll(() => rows.count()).toBe(9);
    const sums: Record<string, number> = {};
    const totals: Record<string, number> = {};
    for (let index = 0; index < 9; index += 1) {
      const row = rows.nth(index);
      const isTotal = (await row.getAttribute('data-local-id')) === 'total';
      for (const counter of REPORT_COUNTERS) {
        const value = await cellValue(row, counter);
        if (isTotal) totals[counter] = value;
        else sums[counter] = (sums[counter] ?? 0) + value;
      }
    }
    expect(totals).toEqual(sums);
    await rows
      .last()
      .getByRole('button', { name: /^Pendentes de auditoria de todos os postos/ })
      .click();
    const exams = page.getByTestId('counter-exams');
    await exams.locator('tbody tr').first().waitFor();
    // The seed marks exams in analysis as pending in their metadata too: each counts twice.
    await page.getByText(`valor do contador: ${totals.pendingAudit}`, { exact: false }).waitFor();
    await screenshot(page, 'exam-report-all');
    expect(errors).toEqual([]);
    await ownContext.close();
  });
});
