import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityItemOf } from '../../../test/activity-data';
import { renderWithProviders } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { ActivityPage } from './activity-page';
import { describeTarget, type ScreenOf } from './activity-target';

const EXAM_ID = '7d3f0a52-9c1b-4e2a-8f4d-0b6c5e1a2f90';

/** A route table of two screens, as the app hands it in. */
const screenOf: ScreenOf = (path) => {
  const audit = /^\/auditoria\/([^/]+)$/.exec(path);
  if (audit) return { name: 'Auditoria do exame', params: { id: audit[1] } };
  const exam = /^\/exames\/([^/]+)$/.exec(path);
  if (exam) return { name: 'Exame', params: { schedulingId: exam[1] } };
  return null;
};

afterEach(() => vi.unstubAllGlobals());

describe('activity targets as a person reads them', () => {
  it('names pages by their screen, with the scheduling the address names; server targets by what they name', () => {
    expect(describeTarget(`/auditoria/${EXAM_ID}`, screenOf)).toEqual({
      label: 'Auditoria do exame',
      detail: null,
    });
    expect(describeTarget('/exames/DF-000123', screenOf)).toEqual({
      label: 'Exame',
      detail: 'Agendamento DF-000123',
    });
    expect(describeTarget('exam:DEMO-000042')).toEqual({ label: 'Exame', detail: 'DEMO-000042' });
    expect(describeTarget(`user:${EXAM_ID}`)).toEqual({ label: 'Usuário', detail: null });
    expect(describeTarget(`cpf:${'ab12'.repeat(16)}`)).toEqual({
      label: 'Pessoa (CPF pseudonimizado)',
      detail: null,
    });
    // Unknown to the route table or to the namespaces: as it was written.
    expect(describeTarget('/rota-antiga', screenOf)).toEqual({
      label: '/rota-antiga',
      detail: null,
    });
    expect(describeTarget('***.456.789-**')).toEqual({ label: '***.456.789-**', detail: null });
    expect(describeTarget(null)).toBeNull();
  });

  it('the table shows the screen, never the raw address; the details keep the raw target', async () => {
    stubServer({
      'GET /api/ActivityLog': () =>
        json(200, {
          items: [
            activityItemOf(2, { target: `/auditoria/${EXAM_ID}` }),
            activityItemOf(1, { target: 'exam:DF-000123' }),
          ],
          total: 2,
          page: 1,
          pageSize: 50,
        }),
    });
    renderWithProviders(<ActivityPage screenOf={screenOf} />);
    const table = await screen.findByTestId('activity-table');
    const [audit, exam] = within(table).getAllByRole('row').slice(1);
    expect(audit).toHaveTextContent('Auditoria do exame');
    expect(audit).not.toHaveTextContent('/auditoria/');
    expect(exam).toHaveTextContent('Exame');
    expect(exam).toHaveTextContent('DF-000123');
    expect(exam).not.toHaveTextContent('exam:');

    await userEvent.click(screen.getByRole('button', { name: 'Detalhes do evento 2' }));
    const details = await screen.findByTestId('activity-details');
    expect(details).toHaveTextContent('Auditoria do exame');
    expect(details).toHaveTextContent(`Alvo registrado/auditoria/${EXAM_ID}`);
  });
});
