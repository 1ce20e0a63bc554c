/**
 * The CSV import in Chromium, through the API client's upload with progress:
 * a file with a problem imports nothing and lists the line; the corrected
 * file imports every exam, which the list then shows.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_ENV, signedInPage } from '../support/auth';
import { screenshot, useBrowser } from '../support/browser';
import { useServer } from '../support/server';

const HEADER =
  'schedulingId;candidateName;candidateCpf;candidateRenach;schedulingDate;schedulingLocal;room;station';

function csv(lines: string[]): { name: string; mimeType: string; buffer: Buffer } {
  return {
    name: 'agendados.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${[HEADER, ...lines].join('\n')}\n`, 'utf8'),
  };
}

describe('CSV import in Chromium', () => {
  const server = useServer(ADMIN_ENV);
  const browser = useBrowser();

  it('refuses a file with a problem, then imports the corrected one', async () => {
    const { page, errors } = await signedInPage(browser, server.baseUrl, {
      width: 1280,
      height: 900,
    });
    await page.goto(`${server.baseUrl}/exames`);
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const dialog = page.getByRole('dialog');
    const input = dialog.locator('input[type="file"]');

    await input.setInputFiles(
      csv([
        'CSV-E2E-1;Ulisses Importado;529.982.247-25;;25/12/2026 09:00;DEMO.POSTO01-S1;S1;E1',
        'CSV-E2E-2;Vera Importada;123;;25/12/2026 10:00;DEMO.POSTO01-S1;S1;E2',
      ]),
    );
    await dialog.getByRole('button', { name: /Importar|Enviar/ }).click();
    await dialog.getByTestId('import-problems').waitFor();
    expect(await dialog.getByTestId('import-problems').textContent()).toContain('linha 3');
    expect(await dialog.getByRole('alert').textContent()).toContain('Nenhum exame foi importado');
    await screenshot(page, 'import-rejected');

    await input.setInputFiles(
      csv([
        'CSV-E2E-1;Ulisses Importado;529.982.247-25;;25/12/2026 09:00;DEMO.POSTO01-S1;S1;E1',
        'CSV-E2E-2;Vera Importada;111.444.777-35;;25/12/2026 10:00;DEMO.POSTO01-S1;S1;E2',
      ]),
    );
    await dialog.getByRole('button', { name: /Importar|Enviar/ }).click();
    await dialog.getByRole('status').waitFor();
    expect(await dialog.getByRole('status').textContent()).toContain('2 exames importados');
    expect(await dialog.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await screenshot(page, 'import-done');
    expect(errors).toEqual([]);
    await page.close();
  });
});
