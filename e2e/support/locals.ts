import type { Page } from 'playwright-core';

/** Creates a service post on the "Postos de atendimento" screen, as an ADMIN does, and waits for its row. */
export async function createLocalInUi(
  page: Page,
  local: { identifier: string; name: string; address?: string },
): Promise<void> {
  await page
    .locator('nav')
    .getByRole('link', { name: /Postos de atendimento/ })
    .click();
  await page.getByRole('button', { name: 'Novo posto' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Identificador' }).fill(local.identifier);
  await dialog.getByRole('textbox', { name: 'Nome' }).fill(local.name);
  if (local.address) await dialog.getByRole('textbox', { name: 'Endereço' }).fill(local.address);
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await page.getByRole('cell', { name: local.name, exact: true }).waitFor();
}
