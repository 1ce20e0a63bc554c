/**
 * Issue acceptance, in Chromium with two pages on one room's board: the
 * ADMIN creates the room in Salas de prova, an examiner checks in at its
 * post, an exam pushed to `started` through the integration API turns its
 * station's icon on both boards without reload, and the occurrence with a
 * photo the examiner records on one page appears on the other.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dayInZone, zonedDayStartIso } from '@exame/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleJpeg } from '../../apps/server/test/exams';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { useServer } from '../support/server';
import { apiOf } from '../support/api';

const EXAMINER = { email: 'examinador@demo.exame.local', password: ADMIN.password };

describe('exam room board in Chromium', () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'true' });
  const browser = useBrowser();
  let photo: string;

  beforeAll(async () => {
    photo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ocorrencia-')), 'ocorrencia.jpg');
    fs.writeFileSync(photo, await sampleJpeg(480, 7));
  });

  const api = apiOf(() => server.baseUrl);
  const { call, tokenOf } = api;

  const station = (page: Page) =>
    page.locator('[data-testid="station"][data-station="Estação 02"]');

  it('a status change and an occurrence with a photo reach both boards without reload', async () => {
    const admin = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const adminErrors = watchPageErrors(admin);
    await signIn(admin, server.baseUrl, ADMIN.email, ADMIN.password);

    // The room, created on the room-management screen.
    await admin
      .locator('nav')
      .getByRole('link', { name: /Salas de prova/ })
      .click();
    await admin.getByRole('button', { name: 'Nova sala' }).click();
    const form = admin.getByRole('dialog', { name: 'Nova sala de prova' });
    await form.getByRole('combobox', { name: 'Posto' }).click();
    await form.getByRole('option', { name: /DEMO\.POSTO01/ }).click();
    await form.getByRole('textbox', { name: 'Código da sala' }).fill('S9');
    await form.getByRole('textbox', { name: 'Nome' }).fill('Sala Nove');
    await form.getByRole('textbox', { name: 'Estações' }).fill('4');
    await form.getByRole('button', { name: 'Criar sala' }).click();
    const card = admin.getByTestId('room-card').filter({ hasText: 'Sala Nove' });
    await card.waitFor();
    await screenshot(admin, 'room-management');
    expect(await seriousViolations(admin, 'salas de prova')).toEqual([]);

    // An exam of the room today, and the examiner's check-in at the post (DEMO: no face).
    const adminToken = await tokenOf(ADMIN);
    const key = (
      (await call(adminToken, 'POST', '/api/Integration/keys', { name: 'Sistema de provas' }))
        .body as { key: string }
    ).key;
    const today = dayInZone(new Date());
    const pushed = await call(key, 'POST', '/api/Integration/exams', {
      exams: [
        {
          schedulingId: 'SALA9-001',
          candidate: { name: 'Beatriz Candidata', cpf: '529.982.247-25' },
          schedulingDate: zonedDayStartIso(today).replace('T00:00', 'T10:00'),
          status: 'scheduled',
          metadata: { schedulingLocal: 'DEMO.POSTO01-S9' },
          room: 'Sala Nove',
          station: 'Estação 02',
        },
      ],
    });
    expect(pushed.status).toBe(200);
    const examinerToken = await tokenOf(EXAMINER);
    const me = (await call(examinerToken, 'GET', '/api/Auth/me')).body as { cpf: string };
    const rooms = (await call(examinerToken, 'GET', '/api/ExamRoom?schedulingLocal=DEMO.POSTO01'))
      .body as Array<{ id: string; code: string }>;
    const checkIn = await call(examinerToken, 'POST', '/api/SchedulingLocalCheckIn/checkIn', {
      viewers: [{ cpf: me.cpf }],
      schedulingLocal: 'DEMO.POSTO01',
      examRoomId: rooms.find((room) => room.code === 'S9')?.id,
    });
    expect(checkIn.status).toBe(201);

    // Two pages on the board: the examiner's (from the home page) and the ADMIN's.
    const examiner = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const examinerErrors = watchPageErrors(examiner);
    await signIn(examiner, server.baseUrl, EXAMINER.email, EXAMINER.password);
    const mine = examiner.getByTestId('my-rooms');
    await mine.getByText('Sala Nove', { exact: true }).waitFor();
    await mine.getByRole('link', { name: 'Abrir quadro da Sala Nove' }).click();
    await examiner.getByTestId('room-board').waitFor();
    expect(await examiner.title()).toBe('Sala de prova · Exame Teórico');
    await card.getByRole('link', { name: /Abrir quadro/ }).click();
    await admin.getByTestId('room-board').waitFor();
    for (const page of [examiner, admin]) {
      await expect.poll(() => station(page).getAttribute('data-station-status')).toBe('scheduled');
      await expect.poll(() => page.getByTestId('live-status').textContent()).toBe('Ao vivo');
    }
    await screenshot(examiner, 'exam-room-1-scheduled');

    // The delivery system starts the exam: both boards turn the icon, no reload.
    const started = await call(key, 'PATCH', '/api/Integration/exams/SALA9-001/status', {
      status: 'started',
    });
    expect(started.status).toBe(200);
    for (const page of [examiner, admin]) {
      await expect
        .poll(() => station(page).getAttribute('data-station-status'), { timeout: 5_000 })
        .toBe('started');
      await station(page).locator('[data-check-in="true"]').waitFor();
    }
    await screenshot(admin, 'exam-room-2-started-live');

    // The examiner records an occurrence with a photo; the ADMIN's board shows it.
    await station(examiner)
      .getByRole('button', { name: /Ocorrência/ })
      .click();
    const occurrence = examiner.getByRole('dialog', { name: /Ocorrência — Beatriz Candidata/ });
    await occurrence
      .getByRole('textbox', { name: 'Descrição' })
      .fill('Outra pessoa apareceu atrás da candidata.');
    await occurrence.locator('input[type="file"]').setInputFiles(photo);
    await screenshot(examiner, 'exam-room-3-occurrence');
    await occurrence.getByRole('button', { name: 'Registrar ocorrência' }).click();
    await expect
      .poll(() => station(admin).textContent(), { timeout: 5_000 })
      .toContain('1 ocorrência · 1 foto');
    await screenshot(admin, 'exam-room-4-occurrence-live');

    // The examiner interrupts, with a confirmation; the ADMIN sees it live too.
    await station(examiner)
      .getByRole('button', { name: /Interromper/ })
      .click();
    await examiner.getByTestId('alert-modal').getByRole('button', { name: 'Confirmar' }).click();
    await expect
      .poll(() => station(admin).getAttribute('data-station-status'), { timeout: 5_000 })
      .toBe('interrupted');
    expect(await seriousViolations(examiner, 'quadro da sala')).toEqual([]);
    expect(adminErrors).toEqual([]);
    expect(examinerErrors).toEqual([]);
  }, 180_000);
});
