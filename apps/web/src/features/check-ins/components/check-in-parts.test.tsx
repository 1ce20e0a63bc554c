/**
 * How an examiner was admitted, on the record's screens: an entry by face
 * alone stands out on the examiner's card and in the history; a password
 * typed with the face is told quietly; the session says nothing.
 */
import type { CheckInRecord, CheckInViewer } from '@exame/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { CheckInHistory, ViewerCard } from './check-in-parts';

function viewer(overrides: Partial<CheckInViewer>): CheckInViewer {
  return {
    id: 'v1',
    userId: 'u1',
    name: 'Examinadora B',
    cpf: '***.982.247-**',
    faceUrl: null,
    checkInDate: '2026-11-20T12:00:00.000Z',
    checkOutValidated: false,
    checkOutDate: null,
    checkOutFaceUrl: null,
    removedAt: null,
    admittedBy: 'session',
    ...overrides,
  };
}

describe('admitted by', () => {
  it('the card: "Admitido só pelo rosto (sem senha)" stands out, "Confirmado por senha" is quiet, the session says nothing', () => {
    renderWithProviders(
      <>
        <ViewerCard viewer={viewer({ id: 'a', admittedBy: 'face_only' })} />
        <ViewerCard viewer={viewer({ id: 'b', admittedBy: 'password' })} />
        <ViewerCard viewer={viewer({ id: 'c', admittedBy: 'session' })} />
      </>,
    );
    const [faceOnly, password, session] = screen.getAllByTestId('check-in-viewer');
    expect(within(faceOnly!).getByTestId('admitted-face-only')).toHaveTextContent(
      'Admitido só pelo rosto (sem senha)',
    );
    expect(within(password!).getByTestId('admitted-password')).toHaveTextContent(
      'Confirmado por senha',
    );
    expect(within(session!).queryByTestId('admitted-face-only')).toBeNull();
    expect(within(session!).queryByTestId('admitted-password')).toBeNull();
  });

  it('the history says it of the entry', () => {
    const event = (admittedBy: CheckInRecord['history'][number]['admittedBy']) => ({
      type: 'viewer_add' as const,
      at: '2026-11-20T12:00:00.000Z',
      actorName: 'Fiscal',
      subject: 'Examinadora B',
      reason: null,
      transferredFrom: null,
      admittedBy,
    });
    renderWithProviders(
      <CheckInHistory
        record={{ history: [event('face_only'), event('proctoring')] } as CheckInRecord}
      />,
    );
    expect(screen.getAllByText('Admitido só pelo rosto (sem senha)')).toHaveLength(1);
    expect(screen.queryByText(/Confirmado por senha/)).toBeNull();
  });
});
