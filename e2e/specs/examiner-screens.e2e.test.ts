/**
 * The examiner screens in Chromium at 390 px (a phone), 768 px (a tablet) and
 * 1366 px: each screen of the examiner — Início, Sala de prova (the entry
 * form and the open room), the board, Transferir a sala, the finished exams
 * and Salas de prova — fits the window. Neither the page nor any of its
 * tables or lists scrolls sideways (`scrollWidth <= clientWidth`), no badge
 * is cut, and on the narrow screens the board collapses its empty stations.
 * Each state is screenshotted (e2e/artifacts/examiner-<screen>-<width>.png).
 */
import { dayInZone } from '@exame/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { useServer } from '../support/server';
import { apiOf } from '../support/api';

const INSPECTOR = { email: 'fiscal@demo.exame.local', password: ADMIN.password };
const EXAMINER = { email: 'examinador@demo.exame.local', password: ADMIN.password };
const WIDTHS = [390, 768, 1366] as const;
/** A scheduling id as long as the delivery systems send them: it must not break nor push the page. */
const LONG_ID = 'DEMO-2026-POSTO01-S1-000042';

/**
 * What does not fit: the page or anything in the main area that scrolls
 * sideways, a table wider than its box, a badge whose text is cut, and a
 * visible element that reaches past the window's right edge.
 */
function overflowsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.getAttribute('data-testid') ? `[${element.getAttribute('data-testid')}]` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ')[0]}` : ''}`;
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      problems.push(`página: ${root.scrollWidth} > ${root.clientWidth}`);
    }
    const main = document.querySelector('main');
    if (!main) return ['sem <main>'];
    for (const table of Array.from(main.querySelectorAll('table'))) {
      if (table.scrollWidth > table.clientWidth) {
        problems.push(`tabela ${name(table)}: ${table.scrollWidth} > ${table.clientWidth}`);
      }
    }
    for (const element of Array.from(main.querySelectorAll('*'))) {
      const style = getComputedStyle(element);
      const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
      if (scrolls && element.scrollWidth > element.clientWidth) {
        problems.push(
          `rola de lado: ${name(element)} ${element.scrollWidth} > ${element.clientWidth}`,
        );
      }
      const box = element.getBoundingClientRect();
      if (box.width > 2 && box.height > 2 && box.right > root.clientWidth + 1) {
        problems.push(`passa da janela: ${name(element)} até ${Math.round(box.right)}`);
      }
    }
    for (const label of Array.from(main.querySelectorAll('.mantine-Badge-label'))) {
      if (label.scrollWidth > label.clientWidth)
        problems.push(`selo cortado: ${label.textContent}`);
    }
    return problems;
  });
}

/** How many times the long scheduling id shows broken over lines (it must go whole to a line). */
function brokenIds(page: Page, id: string): Promise<number> {
  return page.evaluate((text) => {
    const holders = Array.from(document.querySelectorAll('main *')).filter(
      (element) => element.childElementCount === 0 && element.textContent?.trim() === text,
    );
    // The text's line boxes: more than one is an id broken over lines.
    return holders.filter((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const lines = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)));
      return lines.size > 1;
    }).length;
  }, id);
}

describe('the examiner screens fit a phone, a tablet and a laptop', () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'true' });
  const browser = useBrowser();
  let roomId = '';

  const api = apiOf(() => server.baseUrl);
  const { call, tokenOf } = api;

  beforeAll(async () => {
    // A finished exam with its result in the room, with a long scheduling id.
    const admin = await tokenOf(ADMIN);
    const key = await api.integrationKey(admin, 'e2e telas');
    await api.pushFinishedExam(
      key,
      {
        schedulingId: LONG_ID,
        candidate: { name: 'Maria Aparecida dos Santos Oliveira', cpf: '529.982.247-25' },
        time: '07:30',
        result: 'approved',
        score: 27,
        station: 'Estação 04',
      },
      dayInZone(new Date()),
    );
    // The inspector holds the room S1 of the post (opened through the API, as the screen does).
    const inspector = await tokenOf(INSPECTOR);
    const me = (await call(inspector, 'GET', '/api/Auth/me')).body as { cpf: string };
    const rooms = (await call(inspector, 'GET', '/api/ExamRoom?schedulingLocal=DEMO.POSTO01'))
      .body as Array<{ id: string; code: string }>;
    roomId = rooms.find((room) => room.code === 'S1')?.id ?? '';
    const opened = await call(inspector, 'POST', '/api/SchedulingLocalCheckIn/checkIn', {
      viewers: [{ cpf: me.cpf }],
      schedulingLocal: 'DEMO.POSTO01',
      examRoomId: roomId,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  });

  /** Checks the screen at this width and keeps its picture. */
  async function fits(page: Page, screen: string, width: number) {
    // Fonts and images settle before the measure.
    await page.evaluate(() => document.fonts.ready);
    await screenshot(page, `examiner-${screen}-${width}`);
    expect(await overflowsOf(page), `${screen} a ${width} px`).toEqual([]);
  }

  for (const width of WIDTHS) {
    it(`at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      await signIn(page, server.baseUrl, INSPECTOR.email, INSPECTOR.password);

      // Início: the room the inspector holds.
      await page.getByTestId('my-rooms').getByText('Sala 1', { exact: true }).waitFor();
      await fits(page, 'home', width);

      // Sala de prova: the open room, read from the server, with the exams of the post.
      await page.goto(`${server.baseUrl}/viewer-checkin`);
      await page.getByTestId('open-room').waitFor();
      await page.getByTestId('check-in-exams').waitFor();
      await page.getByTestId('check-in-exams').getByText(LONG_ID).waitFor();
      await fits(page, 'viewer-checkin', width);
      expect(await brokenIds(page, LONG_ID), 'id do agendamento na sala').toBe(0);

      // The board: on a narrow screen the empty stations collapse into one line.
      await page.goto(`${server.baseUrl}/exam-room/${roomId}`);
      await page.getByTestId('room-board').waitFor();
      await page.getByTestId('room-exams').waitFor();
      await page.getByText(LONG_ID).first().waitFor();
      const collapsed = await page.getByTestId('empty-stations').count();
      expect(collapsed).toBe(width < 1200 ? 1 : 0);
      // No dead end: the examiner's scheduling ids are no links to the exam detail.
      expect(await page.locator('main a[href*="/exames/"]').count()).toBe(0);
      await fits(page, 'exam-room', width);
      expect(await brokenIds(page, LONG_ID), 'id do agendamento no quadro').toBe(0);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      if (width === 390) expect(height, 'o quadro a 390 px').toBeLessThan(2_500);

      // Transferir a sala.
      await page.goto(`${server.baseUrl}/change-examiner`);
      await page.getByRole('radiogroup', { name: 'Examinador que entrega a sala' }).waitFor();
      await fits(page, 'change-examiner', width);

      // The finished exams of the room.
      await page.goto(`${server.baseUrl}/finished-exam-view?room=${roomId}`);
      await page.getByTestId('finished-exams').getByText(LONG_ID).waitFor();
      await fits(page, 'finished-exam-view', width);
      expect(await brokenIds(page, LONG_ID), 'id do agendamento nos finalizados').toBe(0);

      // Salas de prova, with a post chosen (its exams without a room below).
      await page.goto(`${server.baseUrl}/room-management`);
      await page.getByTestId('rooms').waitFor();
      await page.getByRole('combobox', { name: 'Posto' }).click();
      await page.getByRole('option', { name: /DEMO\.POSTO01\)/ }).click();
      await page.getByRole('heading', { name: 'Exames de hoje sem sala cadastrada' }).waitFor();
      await page.keyboard.press('Escape');
      await fits(page, 'room-management', width);
      expect(errors).toEqual([]);
      await context.close();

      // The entry form of another examiner, with the post chosen and its rooms to pick.
      const other = await browser.newContext({ viewport: { width, height: 900 } });
      const form = await other.newPage();
      await signIn(form, server.baseUrl, EXAMINER.email, EXAMINER.password);
      await form.goto(`${server.baseUrl}/viewer-checkin`);
      await form.getByRole('combobox', { name: 'Posto de atendimento' }).click();
      await form.getByRole('option', { name: 'Posto Centro (DEMO.POSTO01)' }).click();
      await form.getByRole('combobox', { name: /Sala de prova/ }).waitFor();
      await form.keyboard.press('Escape');
      await fits(form, 'viewer-checkin-form', width);
      await other.close();
    }, 240_000);
  }
});
