/**
 * The disqualification-reasons screen (ADMIN): the list, the form validated
 * with the server's schema, the code already taken shown under its field,
 * and deactivation only after a confirmation (nothing is ever deleted).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DisqualificationReason } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import { TEST_USER } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { DisqualificationReasonsPage, validateReason } from './reasons-page';
import { json, stubServer } from '../../../test/stub-server';

const reason = (code: string, text: string, isActive = true): DisqualificationReason => ({
  id: `id-${code}`,
  federativeUnit: 'DF',
  code,
  text,
  isActive,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});
const LIST = [
  reason('D01', 'Outra pessoa presente no ambiente durante a prova.'),
  reason('D02', 'Uso de celular, anotações ou material de consulta.', false),
];
const page = (items: DisqualificationReason[]) =>
  json(200, { items, total: items.length, page: 1, pageSize: 20 });

function renderPage() {
  return renderRoutes(
    [{ path: '/justificativas', element: <DisqualificationReasonsPage /> }],
    '/justificativas',
  );
}

describe('disqualification reasons screen', () => {
  beforeEach(() => {
    appStore.setUser({ ...TEST_USER, federativeUnit: 'DF', roleDescription: 'ADMIN' });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('validates with the server’s texts and trims what it sends', () => {
    expect(validateReason({ code: ' D06 ', text: ' Fraude de identidade. ' })).toEqual({
      input: { code: 'D06', text: 'Fraude de identidade.' },
      errors: null,
    });
    expect(validateReason({ code: 'D 6', text: 'abc' }).errors).toEqual({
      code: 'Use de 1 a 20 letras, números, ponto, hífen ou sublinhado no código.',
      text: 'Descreva a justificativa (no mínimo 5 caracteres).',
    });
  });

  it('lists the reasons with their state; "Somente as ativas" asks the server for them', async () => {
    const calls = stubServer({
      'GET /api/DisqualificationReason': (call) =>
        page(call.query.onlyActive === 'true' ? LIST.slice(0, 1) : LIST),
    });
    renderPage();
    const table = await screen.findByTestId('reasons-table');
    expect(within(table).getByRole('cell', { name: 'D01' })).toBeInTheDocument();
    expect(within(table).getByText('Inativa')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Somente as ativas' }));
    await waitFor(() => expect(within(table).queryByRole('cell', { name: 'D02' })).toBeNull());
    expect(calls.at(-1)?.query.onlyActive).toBe('true');
  });

  it('creates a reason; a code already taken is shown under the code field', async () => {
    let answer = () =>
      json(409, {
        Error: 'Já existe uma justificativa com este código na unidade.',
        code: 'REASON_CODE_TAKEN',
      });
    const calls = stubServer({
      'GET /api/DisqualificationReason': () => page(LIST),
      'POST /api/DisqualificationReason': () => answer(),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Nova justificativa' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nova justificativa' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(within(dialog).getByText('Informe o código da justificativa.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Código/ }), 'D01');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /^Justificativa/ }),
      'Fraude de identidade.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(
      await within(dialog).findByText('Já existe uma justificativa com este código na unidade.'),
    ).toBeInTheDocument();
    answer = () => json(201, reason('D06', 'Fraude de identidade.'));
    const code = within(dialog).getByRole('textbox', { name: /Código/ });
    await userEvent.clear(code);
    await userEvent.type(code, 'D06');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('A justificativa D06 foi criada.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.body).toEqual({
      code: 'D06',
      text: 'Fraude de identidade.',
    });
  });

  it('deactivates only after a confirmation; Cancelar sends nothing', async () => {
    const calls = stubServer({
      'GET /api/DisqualificationReason': () => page(LIST),
      'PUT /api/DisqualificationReason/id-D01': () => json(200, { ...LIST[0]!, isActive: false }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: /^Desativar\s*D01$/ }));
    let alert = await screen.findByTestId('alert-modal');
    expect(alert).toHaveTextContent('deixa de ser oferecida aos auditores');
    await userEvent.click(within(alert).getByRole('button', { name: 'Cancelar' }));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: /^Desativar\s*D01$/ }));
    alert = await screen.findByTestId('alert-modal');
    await userEvent.click(within(alert).getByRole('button', { name: 'Desativar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ isActive: false });
    expect(await screen.findByText('A justificativa D01 foi desativada.')).toBeInTheDocument();
  });
});
