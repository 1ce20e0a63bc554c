/**
 * Issue acceptance: an ADMIN creates a local and an API key, a script pushes
 * exams through the integration API, the exams appear in `exames` with the
 * right filters, and the detail page shows an occurrence and a photo.
 */
import { describe, expect, it } from 'vitest';
import { sampleJpeg } from '../../apps/server/test/exams';
import { ADMIN_ENV, signedInPage } from '../support/auth';
import { screenshot, useBrowser } from '../support/browser';
import { createLocalInUi } from '../support/locals';
import { useServer } from '../support/server';

describe('exams end to end', () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'false', ADMIN_FEDERATIVE_UNIT: 'PE' });
  const browser = useBrowser();

  it('local and key in the UI, exams pushed by a script, filtered list and detail with occurrence and photo', async () => {
    const { page, errors } = await signedInPage(browser, server.baseUrl, {
      width: 1366,
      height: 900,
    });

    // A new service post.
    await createLocalInUi(page, {
      identifier: 'PE.E2E01',
      name: 'Posto Ponta a Ponta',
      address: 'Rua dos Testes, 1',
    });

    // An API key, shown once.
    await page
      .locator('nav')
      .getByRole('link', { name: /Integração/ })
      .click();
    await page.getByRole('textbox', { name: 'Nome da nova chave' }).fill('Sistema de provas E2E');
    await page.getByRole('button', { name: 'Criar chave' }).click();
    const key = (await page.getByTestId('new-api-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^exk_/);
    await screenshot(page, 'integration-key-created');
    await page.getByRole('button', { name: 'Concluir' }).click();

    // The delivery system pushes exams, an occurrence with a photo, and another photo.
    const api = (path: string, body: unknown, method = 'POST') =>
      fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(body),
      });
    const pushed = await api('/api/Integration/exams', {
      exams: [
        {
          schedulingId: 'E2E-001',
          candidate: { name: 'Beatriz Nogueira', cpf: '529.982.247-25', renach: 'PE11111111' },
          schedulingDate: new Date(Date.now() - 2 * 3_600_000).toISOString(),
          status: 'started',
          metadata: { schedulingLocal: 'PE.E2E01-S1' },
          room: 'Sala 1',
          station: 'Estação 03',
        },
        {
          schedulingId: 'E2E-002',
          candidate: { name: 'Caio Teixeira', cpf: '111.444.777-35' },
          schedulingDate: new Date(Date.now() - 3 * 3_600_000).toISOString(),
          status: 'done',
          result: 'approved',
          score: 27,
          metadata: { schedulingLocal: 'PE.E2E01-S2' },
        },
        {
          schedulingId: 'E2E-003',
          candidate: { name: 'Davi Moraes', cpf: '123.456.789-09' },
          schedulingDate: new Date(Date.now() - 1 * 3_600_000).toISOString(),
          status: 'scheduled',
          metadata: { schedulingLocal: 'PE.OUTRO-S1' },
        },
      ],
    });
    expect(pushed.status).toBe(200);
    expect(await pushed.json()).toEqual({ created: 3, updated: 0, unchanged: 0 });
    const occurrence = await api('/api/Integration/exams/E2E-001/occurrences', {
      occurrences: [
        {
          externalId: 'oc-e2e-1',
          type: 'terceiro',
          description: 'Outra pessoa apareceu atrás do candidato.',
          occurredAt: new Date().toISOString(),
          photo: (await sampleJpeg(480, 11)).toString('base64'),
        },
      ],
    });
    expect(occurrence.status).toBe(200);
    const photo = await api('/api/Integration/exams/E2E-001/photos', {
      image: `data:image/jpeg;base64,${(await sampleJpeg(640, 5)).toString('base64')}`,
      capturedAt: new Date().toISOString(),
    });
    expect(photo.status).toBe(200);
    const finished = await api(
      '/api/Integration/exams/E2E-001/status',
      { status: 'done', result: 'in_analysis', score: 19 },
      'PATCH',
    );
    expect(finished.status).toBe(200);

    // The list with filters.
    await page
      .locator('nav')
      .getByRole('link', { name: /^Exames/ })
      .click();
    await page.getByRole('link', { name: 'Davi Moraes' }).waitFor();
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(3);
    await page.getByLabel('Posto', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Posto Ponta a Ponta' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel('Resultado', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Em análise' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Beatriz Nogueira');
    expect(await rows.first().textContent()).toContain('***.982.247-**');
    await screenshot(page, 'exams-filtered');

    // The detail: occurrence and photos, served by signed address.
    await page.getByRole('link', { name: 'Beatriz Nogueira' }).click();
    await page.getByRole('heading', { name: 'Beatriz Nogueira' }).waitFor();
    await page.getByText('Outra pessoa apareceu atrás do candidato.').waitFor();
    const images = page.getByTestId('exam-photos').locator('img');
    await expect.poll(() => images.count()).toBe(2);
    await expect
      .poll(() =>
        images.evaluateAll((elements) =>
          elements.map((element) => (element as HTMLImageElement).naturalWidth),
        ),
      )
      .toEqual([480, 640]);
    await page.getByText('Iniciado → Finalizado (Em análise)').waitFor();
    await screenshot(page, 'exam-detail');
    expect(errors).toEqual([]);
    await page.close();
  });
});
