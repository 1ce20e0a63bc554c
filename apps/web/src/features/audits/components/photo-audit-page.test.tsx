/**
 * The photo audit of an exam (`/photo-audit/:examId`): the keyboard marks
 * the current capture (I incompatível, C compatível) and moves (← →), the
 * progress counts the marks, keys typed into a text field are not
 * shortcuts, and without the claim nothing can be marked.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuditDetail, PhotoVerdict } from '@exame/shared';
import { renderRoutes } from '../../../test/render';
import { PhotoAuditPage } from './photo-audit-page';
import { json, stubServer, type StubCall as Call } from '../../../test/stub-server';
import {
  AUDITOR,
  CAPTURES,
  CLAIM_PATH,
  CLAIMED_BY_OTHER,
  DETAIL_PATH,
  EXAM_ID,
  claimOf,
  detailOf,
} from '../../../test/audit-data';
import { signInForEachTest } from '../../../test/signed-in';

const markPath = (photoId: string) => `${DETAIL_PATH}/photos/${photoId}/mark`;

/** A server that keeps the marks it receives, as the real one does. */
function markingServer(detail: AuditDetail = detailOf()) {
  let current = detail;
  const handlers: Record<string, (call: Call) => Response> = {
    [`POST ${CLAIM_PATH}`]: () => json(200, claimOf()),
    [`GET ${DETAIL_PATH}`]: () => json(200, current),
  };
  for (const photo of detail.captures) {
    handlers[`PUT ${markPath(photo.id)}`] = (call) => {
      const mark = {
        verdict: (call.body as { verdict: PhotoVerdict }).verdict,
        auditorName: AUDITOR.name,
        markedAt: '2026-11-21T13:05:00.000Z',
      };
      current = {
        ...current,
        captures: current.captures.map((capture) =>
          capture.id === photo.id ? { ...capture, mark } : capture,
        ),
      };
      return json(200, mark);
    };
  }
  return stubServer(handlers);
}

function renderPage() {
  return renderRoutes(
    [
      {
        path: '/photo-audit/:examId',
        element: (
          <>
            <input aria-label="Anotação" />
            <PhotoAuditPage />
          </>
        ),
      },
    ],
    `/photo-audit/${EXAM_ID}`,
  );
}

const marks = (calls: Call[]) =>
  calls.filter((call) => call.method === 'PUT').map((call) => [call.path, call.body]);

async function currentCapture() {
  return screen.findByTestId('current-capture');
}

/** Which capture is on screen ("Captura 2 de 3 · …"). */
const position = async () => (await currentCapture()).textContent?.match(/^Captura (\d) de 3/)?.[1];

describe('photo audit', () => {
  signInForEachTest(AUDITOR);

  it('"i" marks the current capture incompatible, "c" the next compatible; the progress counts them', async () => {
    const calls = markingServer();
    renderPage();
    expect(await currentCapture()).toHaveTextContent(/^Captura 1 de 3/);
    expect(screen.getByTestId('photo-progress')).toHaveTextContent('0 de 3 marcadas');
    // The claim is taken on opening, as on the audit screen.
    expect(calls.filter((call) => call.path === CLAIM_PATH)).toHaveLength(1);

    await userEvent.keyboard('i');
    await waitFor(() =>
      expect(screen.getByTestId('photo-progress')).toHaveTextContent('1 de 3 marcadas'),
    );
    expect(marks(calls)).toEqual([[markPath('p1'), { verdict: 'incompatible' }]]);
    // A mark moves on to the next capture.
    await waitFor(async () => expect(await position()).toBe('2'));
    expect(
      screen.getByRole('button', { name: 'Captura 1, marcada incompatível' }),
    ).toBeInTheDocument();

    await userEvent.keyboard('C');
    await waitFor(() =>
      expect(screen.getByTestId('photo-progress')).toHaveTextContent('2 de 3 marcadas'),
    );
    expect(marks(calls)).toEqual([
      [markPath('p1'), { verdict: 'incompatible' }],
      [markPath('p2'), { verdict: 'compatible' }],
    ]);
    expect(
      screen.getByRole('button', { name: 'Captura 2, marcada compatível' }),
    ).toBeInTheDocument();
  });

  it('← and → move the current capture, within the first and the last', async () => {
    const calls = markingServer();
    renderPage();
    expect(await currentCapture()).toHaveTextContent(/^Captura 1 de 3/);
    await userEvent.keyboard('{ArrowLeft}');
    expect(await position()).toBe('1');
    await userEvent.keyboard('{ArrowRight}');
    expect(await position()).toBe('2');
    expect(screen.getByRole('button', { name: 'Captura 2' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    expect(await position()).toBe('3');
    await userEvent.keyboard('{ArrowLeft}');
    expect(await position()).toBe('2');
    // The mark goes to the capture on screen.
    await userEvent.keyboard('i');
    await waitFor(() => expect(marks(calls)).toHaveLength(1));
    expect(marks(calls)).toEqual([[markPath(CAPTURES[1]!.id), { verdict: 'incompatible' }]]);
  });

  it('keys typed into a text field are not shortcuts', async () => {
    const calls = markingServer();
    renderPage();
    await currentCapture();
    const field = screen.getByRole('textbox', { name: 'Anotação' });
    await userEvent.type(field, 'ic{ArrowRight}');
    expect(field).toHaveValue('ic');
    expect(await position()).toBe('1');
    expect(marks(calls)).toEqual([]);
    expect(screen.getByTestId('photo-progress')).toHaveTextContent('0 de 3 marcadas');
  });

  it('without the claim (another auditor holds the exam) the captures cannot be marked', async () => {
    const calls = stubServer({
      [`POST ${CLAIM_PATH}`]: () => json(409, CLAIMED_BY_OTHER),
      [`GET ${DETAIL_PATH}`]: () =>
        json(
          200,
          detailOf({
            claim: claimOf({ auditorName: 'Bia Auditora', mine: false }),
            alert: CLAIMED_BY_OTHER.alert,
          }),
        ),
    });
    renderPage();
    const alert = await screen.findByTestId('alert-modal');
    expect(within(alert).getByTestId('auditor-alert')).toHaveTextContent('Bia Auditora');
    await userEvent.click(within(alert).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(screen.queryByTestId('alert-modal')).toBeNull());

    const capture = await currentCapture();
    expect(within(capture).getByRole('button', { name: 'Compatível (C)' })).toBeDisabled();
    expect(within(capture).getByRole('button', { name: 'Incompatível (I)' })).toBeDisabled();
    expect(
      screen.getByText(
        'Em auditoria por Bia Auditora: você pode ver as capturas, mas não marcá-las.',
      ),
    ).toBeInTheDocument();
    await userEvent.keyboard('ic');
    // Moving still works: the captures can be seen.
    await userEvent.keyboard('{ArrowRight}');
    expect(await position()).toBe('2');
    expect(marks(calls)).toEqual([]);
  });
});
