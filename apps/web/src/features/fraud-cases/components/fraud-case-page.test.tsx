/**
 * A possible-fraud case (`/possiveis-fraudes/:id`): its exams and matches
 * with the photos (a box that says so where one is missing), the tab named
 * by its number, the close dialog validating with the shared schema's pt-BR
 * messages and posting the outcome and the note, the server's refusal shown
 * in the dialog, the send to audit only after a confirmation, and a closed
 * case with who closed it and no actions.
 */
import { FRAUD_CASE_ERRORS } from '@exame/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AUDITOR } from '../../../test/audit-data';
import { CASE_ID, CASE_PATH, caseDetailOf } from '../../../test/fraud-case-data';
import { renderRoutes } from '../../../test/render';
import { signInForEachTest } from '../../../test/signed-in';
import { json, stubServer, type StubCall } from '../../../test/stub-server';
import { FraudCasePage } from './fraud-case-page';

function renderPage() {
  return renderRoutes(
    [
      { path: '/possiveis-fraudes/:id', element: <FraudCasePage /> },
      { path: '/possiveis-fraudes', element: <p>Lista de casos</p> },
    ],
    `/possiveis-fraudes/${CASE_ID}`,
  );
}

const posts = (calls: StubCall[]) => calls.filter((call) => call.method === 'POST');

async function casePage() {
  return screen.findByRole('heading', { level: 2, name: 'Caso nº 7' });
}

describe('a possible-fraud case', () => {
  signInForEachTest(AUDITOR);

  it('shows the exams and the matches with their photos, and names the tab by the case', async () => {
    stubServer({ [`GET ${CASE_PATH}`]: () => json(200, caseDetailOf()) });
    renderPage();
    await casePage();
    await waitFor(() =>
      expect(document.title).toBe('Caso nº 7 — Possíveis fraudes · Exame Teórico'),
    );
    expect(screen.getByText(/Um caso nunca muda um resultado sozinho/)).toBeInTheDocument();

    const exams = screen.getAllByTestId('fraud-case-exam');
    expect(exams).toHaveLength(2);
    const [carla, joana] = exams as [HTMLElement, HTMLElement];
    expect(within(carla).getByRole('heading', { name: 'Carla Candidata' })).toBeInTheDocument();
    expect(carla).toHaveTextContent('***.982.247-**');
    expect(carla).toHaveTextContent('Posto Asa Sul');
    expect(carla).toHaveTextContent('Sala 1');
    expect(carla).toHaveTextContent('Fiscal Um, Fiscal Dois');
    expect(carla).not.toHaveTextContent('Na fila de auditoria');
    expect(
      within(carla).getByRole('img', { name: 'Foto de referência de Carla Candidata' }),
    ).toHaveAttribute('src', 'https://fotos.exemplo/ref-e1.jpg');
    expect(within(carla).getByRole('link', { name: /Abrir o exame/ })).toHaveAttribute(
      'href',
      '/exames/DF-e1',
    );
    expect(joana).toHaveTextContent('Na fila de auditoria');
    expect(joana).toHaveTextContent('Nenhum registrado');
    expect(within(joana).getByTestId('missing-photo')).toHaveTextContent('Sem foto de referência');

    const [match] = screen.getAllByTestId('fraud-case-match');
    expect(within(match!).getByRole('heading', { name: 'Carla Candidata e Joana Outra' }));
    expect(match).toHaveTextContent('Semelhança 93,4%');
    expect(
      within(match!).getByRole('img', { name: /^Captura do exame de Carla Candidata em / }),
    ).toHaveAttribute('src', 'https://fotos.exemplo/c1.jpg');
    // Joana's capture and reference photo are missing: two boxes say so.
    const missing = within(match!)
      .getAllByTestId('missing-photo')
      .map((box) => box.textContent);
    expect(missing).toEqual(['Sem captura', 'Sem foto de referência']);
  });

  it('closing validates the outcome and the note with the pt-BR messages, then posts them', async () => {
    const closed = caseDetailOf({
      status: 'dismissed',
      closedAt: '2026-11-22T10:00:00.000Z',
      closedBy: AUDITOR.name,
      note: 'Gêmeas idênticas, documentos conferidos.',
    });
    let current = caseDetailOf();
    const calls = stubServer({
      [`GET ${CASE_PATH}`]: () => json(200, current),
      [`POST ${CASE_PATH}/close`]: () => {
        current = closed;
        return json(200, closed);
      },
    });
    renderPage();
    await casePage();
    await userEvent.click(screen.getByRole('button', { name: 'Encerrar caso' }));
    const dialog = await screen.findByRole('dialog', { name: 'Encerrar caso' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Encerrar caso' }));
    expect(
      await within(dialog).findByText('Escolha: fraude confirmada ou descartado.'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('Explique a conclusão (no mínimo 5 caracteres).'),
    ).toBeInTheDocument();
    expect(posts(calls)).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('radio', { name: 'Descartado' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nota/ }), '  ok  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Encerrar caso' }));
    expect(
      await within(dialog).findByText('Explique a conclusão (no mínimo 5 caracteres).'),
    ).toBeInTheDocument();
    expect(posts(calls)).toHaveLength(0);

    const note = within(dialog).getByRole('textbox', { name: /Nota/ });
    await userEvent.clear(note);
    await userEvent.type(note, '  Gêmeas idênticas, documentos conferidos. ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Encerrar caso' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]).toMatchObject({
      path: `${CASE_PATH}/close`,
      body: { outcome: 'dismissed', note: 'Gêmeas idênticas, documentos conferidos.' },
    });
    // Closed: who, when, how and why; no more actions.
    const summary = await screen.findByTestId('fraud-case-closed');
    expect(summary).toHaveTextContent('Conclusão: Descartado');
    expect(summary).toHaveTextContent(`Encerrado por ${AUDITOR.name} em 22/11/2026`);
    expect(summary).toHaveTextContent('Nota: Gêmeas idênticas, documentos conferidos.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Encerrar caso' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Enviar exames à auditoria' })).toBeNull();
  });

  it('a refusal of the server stays in the close dialog', async () => {
    stubServer({
      [`GET ${CASE_PATH}`]: () => json(200, caseDetailOf()),
      [`POST ${CASE_PATH}/close`]: () =>
        json(409, {
          Error: 'Este caso já foi encerrado; nada foi alterado.',
          code: 'FRAUD_CASE_CLOSED',
        }),
    });
    renderPage();
    await casePage();
    await userEvent.click(screen.getByRole('button', { name: 'Encerrar caso' }));
    const dialog = await screen.findByRole('dialog', { name: 'Encerrar caso' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Fraude confirmada' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nota/ }), 'Mesma pessoa.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Encerrar caso' }));
    expect(
      await within(dialog).findByText('Este caso já foi encerrado; nada foi alterado.'),
    ).toBeInTheDocument();
  });

  it('sends the exams to audit only after the confirmation, then says how many went', async () => {
    const calls = stubServer({
      [`GET ${CASE_PATH}`]: () => json(200, caseDetailOf()),
      [`POST ${CASE_PATH}/send-to-audit`]: () => json(200, { sent: 1, alreadyInQueue: 1 }),
    });
    renderPage();
    await casePage();
    await userEvent.click(screen.getByRole('button', { name: 'Enviar exames à auditoria' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar exames à auditoria' });
    expect(dialog).toHaveTextContent('Os resultados já liberados são reabertos para auditoria');
    expect(posts(calls)).toHaveLength(0);

    // Cancelling sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Enviar exames à auditoria' }));
    const again = await screen.findByRole('dialog', { name: 'Enviar exames à auditoria' });
    await userEvent.click(within(again).getByRole('button', { name: 'Enviar à auditoria' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]).toMatchObject({ path: `${CASE_PATH}/send-to-audit`, body: undefined });
    expect(
      await screen.findByText('1 exame enviado à auditoria. 1 já estava na fila.'),
    ).toBeInTheDocument();
    // The case is read again after the action.
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'GET' && call.path === CASE_PATH)).toHaveLength(
        2,
      ),
    );
  });

  it('a send refused by the server says why in the dialog', async () => {
    stubServer({
      [`GET ${CASE_PATH}`]: () => json(200, caseDetailOf()),
      [`POST ${CASE_PATH}/send-to-audit`]: () =>
        json(409, {
          Error: FRAUD_CASE_ERRORS.FRAUD_CASE_NOTHING_TO_AUDIT.message,
          code: 'FRAUD_CASE_NOTHING_TO_AUDIT',
        }),
    });
    renderPage();
    await casePage();
    await userEvent.click(screen.getByRole('button', { name: 'Enviar exames à auditoria' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enviar exames à auditoria' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar à auditoria' }));
    expect(
      await within(dialog).findByText(/Nenhum exame deste caso pode ir para a auditoria/),
    ).toBeInTheDocument();
  });

  it('a closed case shows who closed it and offers no actions', async () => {
    stubServer({
      [`GET ${CASE_PATH}`]: () =>
        json(
          200,
          caseDetailOf({
            status: 'confirmed',
            closedAt: '2026-11-22T10:00:00.000Z',
            closedBy: 'Bia Auditora',
            note: 'A mesma pessoa fez as duas provas.',
            sentToAuditAt: '2026-11-21T15:00:00.000Z',
            sentToAuditBy: 'Bia Auditora',
          }),
        ),
    });
    renderPage();
    await casePage();
    expect(screen.getByTestId('fraud-case-closed')).toHaveTextContent(
      'Conclusão: Fraude confirmadaEncerrado por Bia Auditora em 22/11/2026',
    );
    expect(screen.getByTestId('fraud-case-sent')).toHaveTextContent(
      /^Exames enviados à auditoria em 21\/11\/2026 \d\d:00 por Bia Auditora\.$/,
    );
    expect(screen.queryByRole('button', { name: 'Encerrar caso' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Enviar exames à auditoria' })).toBeNull();
  });
});
