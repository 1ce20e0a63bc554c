/**
 * The audit of an exam (`/auditoria/:id`). As an auditor: opening it claims
 * it (and remembers the claim under spec 3's keys), the captures with the
 * face engine's reading next to the reference photo, the release after a
 * confirmation, the disqualification whose button waits for a reason and a
 * note, the auditor alert when another auditor holds the exam, and the
 * second auditor's confirmation. As an ADMIN: no claim, and the reopening of
 * a decision in effect with a reason.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuditDecisionResult, AuditDetail, AuditPhoto } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import { renderRoutes } from '../../../test/render';
import { AuditPage } from './audit-page';
import {
  json,
  stubServer,
  type StubCall as Call,
  type StubHandler,
} from '../../../test/stub-server';
import { TEST_USER } from '../../../test/fixtures';
import {
  AUDITOR,
  CAPTURES,
  CLAIM_PATH,
  CLAIMED_BY_OTHER,
  DETAIL_PATH,
  EXAM_ID,
  REASONS,
  SCHEDULING_ID,
  claimOf,
  decisionOf,
  detailOf,
  examOf,
} from '../../../test/audit-data';
import { signInForEachTest } from '../../../test/signed-in';

const DECISION_PATH = `${DETAIL_PATH}/decision`;
const CONFIRMATION_PATH = `${DETAIL_PATH}/confirmation`;
const REOPEN_PATH = `${DETAIL_PATH}/reopen`;

const result = (overrides: Partial<AuditDecisionResult> = {}): AuditDecisionResult => ({
  state: 'effective',
  outcome: 'approved',
  result: 'approved',
  ...overrides,
});

function base(detail: AuditDetail = detailOf(), extra: Record<string, StubHandler> = {}) {
  return {
    [`POST ${CLAIM_PATH}`]: () => json(200, claimOf()),
    [`GET ${DETAIL_PATH}`]: () => json(200, detail),
    'GET /api/DisqualificationReason': () => json(200, REASONS),
    ...extra,
  };
}

function renderPage() {
  return renderRoutes(
    [
      { path: '/auditoria/:id', element: <AuditPage /> },
      { path: '/auditoria', element: <p>Fila de auditoria</p> },
    ],
    `/auditoria/${EXAM_ID}`,
  );
}

const posts = (calls: Call[], path?: string) =>
  calls.filter((call) => call.method === 'POST' && (path === undefined || call.path === path));

/** The page once the exam is on screen; the decision panel. */
async function decisionPanel() {
  await screen.findByRole('heading', { level: 2, name: 'Auditoria · Carla Candidata' });
  return screen.getByTestId('decision-panel');
}

/** The global alert modal showing `title`. */
async function alertTitled(title: string) {
  const alert = await screen.findByTestId('alert-modal');
  expect(within(alert).getByText(title, { selector: '#alert-modal-title' })).toBeInTheDocument();
  return alert;
}

const buttonNames = (element: HTMLElement) =>
  within(element)
    .queryAllByRole('button')
    .map((button) => button.textContent);

describe('audit of an exam, as an auditor', () => {
  signInForEachTest(AUDITOR);

  it('opening the exam claims it, then reads it, and remembers the claim under auditorCpf and schedulingId', async () => {
    const calls = stubServer(base());
    renderPage();
    await decisionPanel();
    // The claim comes first: the exam is read once it is held.
    const paths = calls.map((call) => `${call.method} ${call.path}`);
    expect(paths.indexOf(`POST ${CLAIM_PATH}`)).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf(`POST ${CLAIM_PATH}`)).toBeLessThan(paths.indexOf(`GET ${DETAIL_PATH}`));
    expect(posts(calls, CLAIM_PATH)).toHaveLength(1);
    expect(localStorage.getItem('auditorCpf')).toBe(AUDITOR.cpf);
    expect(localStorage.getItem('schedulingId')).toBe(SCHEDULING_ID);
    expect(screen.getByTestId('claim-state')).toHaveTextContent(/^Você audita este exame até/);
    expect(screen.getByText(`Agendamento ${SCHEDULING_ID}`)).toBeInTheDocument();
    expect(screen.getByTestId('occurrences')).toHaveTextContent(
      'Uma voz ao fundo durante a prova.',
    );
  });

  it('shows each capture with the engine’s similarity and reading, and the reference photo', async () => {
    stubServer(base());
    renderPage();
    await decisionPanel();
    const captures = within(screen.getByTestId('captures')).getAllByTestId('capture');
    // In the server's order: least like the reference first.
    expect(captures).toHaveLength(3);
    // The auditor reads the level, in words, and no number.
    expect(captures[0]).toHaveTextContent('Similaridade baixa');
    expect(captures[0]).toHaveTextContent('Provável outra pessoa (pelo motor facial)');
    expect(captures[1]).toHaveTextContent('Similaridade média');
    expect(captures[1]).toHaveTextContent('Provável mesma pessoa (pelo motor facial)');
    expect(captures[2]).toHaveTextContent('Rosto não encontrado');
    expect(captures[2]).not.toHaveTextContent('Similaridade');
    expect(screen.queryByTestId('similarity-scores')).not.toBeInTheDocument();
    const reference = screen.getByTestId('reference-photo');
    expect(
      within(reference).getByRole('img', { name: 'Foto de referência do candidato' }),
    ).toHaveAttribute('src', 'https://fotos.exemplo/ref.jpg');
    expect(screen.getByRole('link', { name: 'Auditoria de fotos' })).toHaveAttribute(
      'href',
      `/photo-audit/${EXAM_ID}`,
    );
  });

  it('ADMIN sees the numbers behind each level: the distance and the unit threshold', async () => {
    const [low, close, none] = CAPTURES as [AuditPhoto, AuditPhoto, AuditPhoto];
    const withScores = (photo: AuditPhoto, distance: number): AuditPhoto => ({
      ...photo,
      face: { ...photo.face, distance, similarity: 1 - distance },
    });
    stubServer(
      base(
        detailOf({
          threshold: 0.69,
          captures: [withScores(low, 0.74), withScores(close, 0.66), none],
        }),
      ),
    );
    renderPage();
    await decisionPanel();
    const captures = within(screen.getByTestId('captures')).getAllByTestId('capture');
    expect(captures[0]).toHaveTextContent('Similaridade baixa');
    expect(captures[0]).toHaveTextContent('Distância 0,74 (limite 0,69)');
    expect(captures[1]).toHaveTextContent('Similaridade média');
    expect(captures[1]).toHaveTextContent('Distância 0,66 (limite 0,69)');
    expect(captures[2]).not.toHaveTextContent('Distância');
  });

  it('without a reference photo, says so', async () => {
    stubServer(base(detailOf({ reference: null })));
    renderPage();
    await decisionPanel();
    const reference = screen.getByTestId('reference-photo');
    expect(reference).toHaveTextContent(
      'O sistema de provas não enviou a foto de referência deste candidato: compare as capturas entre si.',
    );
    expect(within(reference).queryByRole('img')).toBeNull();
  });

  it('an exam sent to audit with possible-fraud cases links to each case', async () => {
    stubServer(
      base(
        detailOf({
          fraudCases: [
            { id: 'f7', number: 7, status: 'open' },
            { id: 'f9', number: 9, status: 'confirmed' },
          ],
        }),
      ),
    );
    renderPage();
    await decisionPanel();
    const alert = screen.getByTestId('audit-fraud-cases');
    expect(alert).toHaveTextContent('Este exame faz parte de um caso de possível fraude');
    expect(within(alert).getByRole('link', { name: 'Caso nº 7' })).toHaveAttribute(
      'href',
      '/possiveis-fraudes/f7',
    );
    expect(within(alert).getByRole('link', { name: 'Caso nº 9' })).toHaveAttribute(
      'href',
      '/possiveis-fraudes/f9',
    );
  });

  it('no case, or a server that does not send the field yet: no possible-fraud alert', async () => {
    const { fraudCases: _omitted, ...withoutField } = detailOf();
    stubServer(base(withoutField as AuditDetail));
    renderPage();
    await decisionPanel();
    expect(screen.queryByTestId('audit-fraud-cases')).toBeNull();
  });

  it('releases the result after a confirmation: Cancelar sends nothing, Liberar sends {action: release}', async () => {
    const calls = stubServer(
      base(detailOf(), { [`POST ${DECISION_PATH}`]: () => json(200, result()) }),
    );
    renderPage();
    const panel = await decisionPanel();
    const release = within(panel).getByRole('button', { name: 'Liberar resultado (Aprovado)' });
    await userEvent.click(release);
    let alert = await alertTitled('Liberar o resultado');
    expect(within(alert).getByTestId('alert-modal-message')).toHaveTextContent(
      'O resultado do exame será liberado como Aprovado (nota 80).',
    );
    await userEvent.click(within(alert).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByTestId('alert-modal')).toBeNull());
    expect(posts(calls, DECISION_PATH)).toEqual([]);

    await userEvent.click(release);
    alert = await alertTitled('Liberar o resultado');
    await userEvent.click(within(alert).getByRole('button', { name: 'Liberar' }));
    await waitFor(() => expect(posts(calls, DECISION_PATH)).toHaveLength(1));
    expect(posts(calls, DECISION_PATH)[0]?.body).toEqual({ action: 'release' });
    expect(await screen.findByText('Resultado registrado: Aprovado.')).toBeInTheDocument();
  });

  it('disqualifying: the button waits for a reason and a note, then sends both', async () => {
    const calls = stubServer(
      base(detailOf(), {
        [`POST ${DECISION_PATH}`]: () =>
          json(200, result({ outcome: 'disqualified', result: 'disqualified' })),
      }),
    );
    renderPage();
    const panel = await decisionPanel();
    await userEvent.click(within(panel).getByRole('button', { name: 'Desclassificar' }));
    const alert = await alertTitled('Desclassificar o exame');
    const disqualify = within(alert).getByRole('button', { name: 'Desclassificar' });
    expect(disqualify).toBeDisabled();

    // Only the unit's active reasons, as the server lists them.
    await userEvent.click(
      within(alert).getByRole('combobox', { name: /Motivo da desclassificação/ }),
    );
    expect(
      within(alert)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'D01 — Outra pessoa presente no ambiente.',
      'D02 — Uso de celular durante a prova.',
    ]);
    await userEvent.click(
      within(alert).getByRole('option', { name: 'D02 — Uso de celular durante a prova.' }),
    );
    expect(disqualify).toBeDisabled();

    const note = within(alert).getByRole('textbox', { name: /Observação/ });
    await userEvent.type(note, 'Celular na mão.');
    expect(disqualify).toBeEnabled();
    // Spec 3's client state holds what is being written.
    expect(appStore.getState()).toMatchObject({
      desclassificationSelectValue: REASONS.items[1]!.id,
      vModelTextArea: 'Celular na mão.',
    });
    await userEvent.click(disqualify);

    await waitFor(() => expect(posts(calls, DECISION_PATH)).toHaveLength(1));
    expect(posts(calls, DECISION_PATH)[0]?.body).toEqual({
      action: 'disqualify',
      reasonId: REASONS.items[1]!.id,
      note: 'Celular na mão.',
    });
    expect(await screen.findByText('Resultado registrado: Desclassificado.')).toBeInTheDocument();
    // The reasons are the unit's active ones.
    expect(calls.find((call) => call.path === '/api/DisqualificationReason')?.query).toMatchObject({
      onlyActive: 'true',
    });
  });

  it('a note without a reason, or a reason with a blank note, leaves Desclassificar disabled', async () => {
    const calls = stubServer(base());
    renderPage();
    const panel = await decisionPanel();
    await userEvent.click(within(panel).getByRole('button', { name: 'Desclassificar' }));
    const alert = await alertTitled('Desclassificar o exame');
    const disqualify = within(alert).getByRole('button', { name: 'Desclassificar' });
    const note = within(alert).getByRole('textbox', { name: /Observação/ });
    await userEvent.type(note, 'Nota.');
    expect(disqualify).toBeDisabled();
    await userEvent.clear(note);
    await userEvent.click(
      within(alert).getByRole('combobox', { name: /Motivo da desclassificação/ }),
    );
    await userEvent.click(
      within(alert).getByRole('option', { name: 'D01 — Outra pessoa presente no ambiente.' }),
    );
    // Blanks are no note.
    await userEvent.type(note, '  ');
    expect(disqualify).toBeDisabled();
    expect(posts(calls, DECISION_PATH)).toEqual([]);
  });

  it('an exam held by another auditor: the auditor alert, and no decision buttons', async () => {
    const calls = stubServer(
      base(
        detailOf({
          claim: claimOf({ auditorName: 'Bia Auditora', mine: false }),
          alert: CLAIMED_BY_OTHER.alert,
        }),
        { [`POST ${CLAIM_PATH}`]: () => json(409, CLAIMED_BY_OTHER) },
      ),
    );
    renderPage();
    const alert = await alertTitled('Exame em auditoria');
    const content = within(alert).getByTestId('auditor-alert');
    expect(content).toHaveTextContent('Este exame está sendo auditado por:');
    const blocks = within(content).getAllByTestId('auditor-block');
    // The holder, then the auditors who worked on the exam.
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toHaveTextContent('Bia Auditora');
    expect(blocks[0]).toHaveTextContent('CPF ***.444.777-**');
    expect(content).toHaveTextContent('Auditores que já trabalharam neste exame:');
    expect(blocks[1]).toHaveTextContent('Caio Auditor');
    expect(blocks[1]).toHaveTextContent('CPF ***.333.444-**');
    expect(blocks[2]).toHaveTextContent('Bia Auditora');
    expect(buttonNames(alert)).toEqual(['Ok']);
    await userEvent.click(within(alert).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(screen.queryByTestId('alert-modal')).toBeNull());

    const panel = await decisionPanel();
    expect(screen.getByTestId('claim-state')).toHaveTextContent(
      'Em auditoria por Bia Auditora: você pode ler o exame, mas não decidir.',
    );
    expect(buttonNames(panel)).toEqual([]);
    // Not held: nothing of it is remembered.
    expect(localStorage.getItem('auditorCpf')).toBeNull();
    expect(localStorage.getItem('schedulingId')).toBeNull();
    expect(posts(calls, DECISION_PATH)).toEqual([]);
  });

  it('captures marked incompatible show in the decision panel (spec 3 imageAlerts) until the page closes', async () => {
    const mark = {
      verdict: 'incompatible' as const,
      auditorName: 'Bia Auditora',
      markedAt: '2026-11-21T12:40:00.000Z',
    };
    const [first, ...rest] = CAPTURES;
    stubServer(base(detailOf({ captures: [{ ...first!, mark }, ...rest] })));
    const { unmount } = renderPage();
    const panel = await decisionPanel();
    const alerts = await within(panel).findByTestId('image-alerts');
    expect(alerts).toHaveTextContent('Capturas incompatíveis');
    expect(alerts).toHaveTextContent(
      /Captura de .* marcada incompatível com a referência por Bia Auditora\./,
    );
    expect(appStore.getState().imageAlerts).toEqual([
      { photoId: first!.id, capturedAt: first!.capturedAt, auditorName: 'Bia Auditora' },
    ]);
    // The capture carries the mark and who made it.
    expect(within(screen.getByTestId('captures')).getAllByTestId('capture')[0]).toHaveTextContent(
      'Incompatível · Bia Auditora',
    );
    unmount();
    expect(appStore.getState().imageAlerts).toEqual([]);
  });

  it('no capture marked incompatible: no image alert', async () => {
    stubServer(base());
    renderPage();
    const panel = await decisionPanel();
    expect(within(panel).queryByTestId('image-alerts')).toBeNull();
    expect(appStore.getState().imageAlerts).toEqual([]);
  });

  it('an exam without a score cannot be released; it can still be disqualified', async () => {
    stubServer(base(detailOf({ exam: examOf({ score: null }), releaseOutcome: null })));
    renderPage();
    const panel = await decisionPanel();
    expect(
      within(panel).getByRole('button', { name: 'Liberar resultado (sem nota)' }),
    ).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Desclassificar' })).toBeEnabled();
    expect(panel).toHaveTextContent('A nota do exame é desconhecida');
  });
});

describe('audit of an exam, the second auditor’s confirmation', () => {
  signInForEachTest(AUDITOR);

  const AWAITING = detailOf({
    current: decisionOf(),
    decisions: [decisionOf()],
    twoPersonRule: true,
  });

  it('another auditor’s decision: "Confirmar decisão" asks, then sends {accept: true}', async () => {
    const calls = stubServer(
      base(AWAITING, {
        [`POST ${CONFIRMATION_PATH}`]: () =>
          json(200, result({ outcome: 'disqualified', result: 'disqualified' })),
      }),
    );
    renderPage();
    const panel = await decisionPanel();
    expect(panel).toHaveTextContent('Decisão aguardando a confirmação de outro auditor');
    expect(panel).toHaveTextContent('Por Bia Auditora');
    expect(panel).toHaveTextContent('Motivo: D01 — Outra pessoa presente no ambiente.');
    expect(buttonNames(panel)).toEqual(['Confirmar decisão', 'Não confirmar']);
    await userEvent.click(within(panel).getByRole('button', { name: 'Confirmar decisão' }));
    const alert = await alertTitled('Confirmar a decisão');
    expect(within(alert).getByTestId('alert-modal-message')).toHaveTextContent(
      'Confirmar Desclassificado, decidido por Bia Auditora? O resultado passa a valer.',
    );
    await userEvent.click(within(alert).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(posts(calls, CONFIRMATION_PATH)).toHaveLength(1));
    expect(posts(calls, CONFIRMATION_PATH)[0]?.body).toEqual({ accept: true });
    expect(await screen.findByText('Decisão confirmada: Desclassificado.')).toBeInTheDocument();
  });

  it('"Não confirmar" needs a note; with one it sends {accept: false, note}', async () => {
    const calls = stubServer(
      base(AWAITING, {
        [`POST ${CONFIRMATION_PATH}`]: () =>
          json(200, result({ state: 'rejected', outcome: 'disqualified', result: 'in_analysis' })),
      }),
    );
    renderPage();
    const panel = await decisionPanel();
    await userEvent.click(within(panel).getByRole('button', { name: 'Não confirmar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Não confirmar a decisão' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Não confirmar' }));
    expect(
      within(dialog).getByText('Diga por que a decisão não é confirmada.'),
    ).toBeInTheDocument();
    expect(posts(calls, CONFIRMATION_PATH)).toEqual([]);

    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /Por que a decisão não é confirmada/ }),
      '  A pessoa nas capturas é a mesma.  ',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Não confirmar' }));
    await waitFor(() => expect(posts(calls, CONFIRMATION_PATH)).toHaveLength(1));
    expect(posts(calls, CONFIRMATION_PATH)[0]?.body).toEqual({
      accept: false,
      note: 'A pessoa nas capturas é a mesma.',
    });
    expect(
      await screen.findByText('Decisão não confirmada: o exame voltou à fila de auditoria.'),
    ).toBeInTheDocument();
  });

  it('my own decision waits for another auditor: no buttons', async () => {
    const mine = decisionOf({ mine: true, auditorName: AUDITOR.name });
    stubServer(base(detailOf({ current: mine, decisions: [mine], twoPersonRule: true })));
    renderPage();
    const panel = await decisionPanel();
    expect(panel).toHaveTextContent('Você tomou esta decisão: outro auditor precisa confirmá-la.');
    expect(buttonNames(panel)).toEqual([]);
  });

  it('another auditor’s decision while the exam is held by a third: no buttons', async () => {
    stubServer(
      base(
        detailOf({
          current: decisionOf(),
          decisions: [decisionOf()],
          claim: claimOf({ auditorName: 'Caio Auditor', mine: false }),
          alert: CLAIMED_BY_OTHER.alert,
        }),
        { [`POST ${CLAIM_PATH}`]: () => json(409, CLAIMED_BY_OTHER) },
      ),
    );
    renderPage();
    const alert = await alertTitled('Exame em auditoria');
    await userEvent.click(within(alert).getByRole('button', { name: 'Ok' }));
    const panel = await decisionPanel();
    expect(buttonNames(panel)).toEqual([]);
  });
});

describe('audit of an exam, as an ADMIN', () => {
  signInForEachTest({ ...TEST_USER, roleDescription: 'ADMIN' });

  const EFFECTIVE = decisionOf({
    state: 'effective',
    confirmedBy: 'Caio Auditor',
    confirmedAt: '2026-11-21T12:30:00.000Z',
  });

  it('reads the exam without claiming it; no decision buttons while it waits for a decision', async () => {
    const calls = stubServer(base(detailOf({ claim: null })));
    renderPage();
    const panel = await decisionPanel();
    expect(posts(calls)).toEqual([]);
    expect(calls.filter((call) => call.path === DETAIL_PATH)).toHaveLength(1);
    expect(buttonNames(panel)).toEqual([]);
    expect(screen.queryByTestId('claim-state')).toBeNull();
    // The reasons are for auditors only.
    expect(calls.some((call) => call.path === '/api/DisqualificationReason')).toBe(false);
    expect(localStorage.getItem('auditorCpf')).toBeNull();
  });

  it('"Reabrir decisão" is offered only for a decision in effect', async () => {
    stubServer(base(detailOf({ claim: null, current: decisionOf(), decisions: [decisionOf()] })));
    const { unmount } = renderPage();
    let panel = await decisionPanel();
    expect(panel).toHaveTextContent('Decisão aguardando a confirmação de outro auditor');
    expect(within(panel).queryByRole('button', { name: 'Reabrir decisão' })).toBeNull();
    unmount();

    stubServer(
      base(
        detailOf({
          claim: null,
          exam: examOf({ result: 'disqualified' }),
          current: EFFECTIVE,
          decisions: [EFFECTIVE],
        }),
      ),
    );
    renderPage();
    panel = await decisionPanel();
    expect(panel).toHaveTextContent('Decisão em vigor');
    expect(buttonNames(panel)).toEqual(['Reabrir decisão']);
  });

  it('reopening refuses a reason under 10 characters in pt-BR, and sends {reason} otherwise', async () => {
    const calls = stubServer(
      base(
        detailOf({
          claim: null,
          exam: examOf({ result: 'disqualified' }),
          current: EFFECTIVE,
          decisions: [EFFECTIVE],
        }),
        {
          [`POST ${REOPEN_PATH}`]: () =>
            json(
              200,
              result({ state: 'reopened', outcome: 'disqualified', result: 'in_analysis' }),
            ),
        },
      ),
    );
    renderPage();
    const panel = await decisionPanel();
    await userEvent.click(within(panel).getByRole('button', { name: 'Reabrir decisão' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reabrir a decisão' });
    const reason = within(dialog).getByRole('textbox', { name: /Motivo da reabertura/ });
    // Nine characters once trimmed.
    await userEvent.type(reason, '  Revisão 1  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reabrir' }));
    expect(
      within(dialog).getByText('Informe o motivo da reabertura (ao menos 10 caracteres).'),
    ).toBeInTheDocument();
    expect(posts(calls, REOPEN_PATH)).toEqual([]);

    await userEvent.clear(reason);
    await userEvent.type(reason, 'Recurso do candidato deferido.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reabrir' }));
    await waitFor(() => expect(posts(calls, REOPEN_PATH)).toHaveLength(1));
    expect(posts(calls, REOPEN_PATH)[0]?.body).toEqual({
      reason: 'Recurso do candidato deferido.',
    });
    expect(
      await screen.findByText('Decisão reaberta: o exame voltou à fila de auditoria.'),
    ).toBeInTheDocument();
    // Only the reopening was posted: an ADMIN never claims.
    expect(posts(calls).map((call) => call.path)).toEqual([REOPEN_PATH]);
  });
});
