/**
 * The routes of "Possíveis fraudes": an examiner meets the access-denied page
 * (and no call about cases is made); an auditor gets the screen.
 */
import type { Role } from '@exame/shared';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../lib/app-store';
import { AUDITOR } from '../test/audit-data';
import { casePageOf } from '../test/fraud-case-data';
import { renderRoutes } from '../test/render';
import { json, stubServer } from '../test/stub-server';
import { fraudCaseRoutes } from './fraud-case-routes';

function signIn(role: Role) {
  appStore.setUser({ ...AUDITOR, roleDescription: role });
}

describe('possible-fraud routes', () => {
  afterEach(() => {
    appStore.clearSession();
    vi.unstubAllGlobals();
  });

  it.each([
    ['VIEWER', '/possiveis-fraudes'],
    ['ROOM_INSPECTOR', '/possiveis-fraudes/f1'],
  ] as const)('a %s at %s sees the access-denied page', async (role, path) => {
    signIn(role);
    const calls = stubServer({});
    renderRoutes(fraudCaseRoutes, path);
    expect(await screen.findByTestId('allowed-profiles')).toHaveTextContent(
      'Esta página é para os perfis Administrador e Auditor.',
    );
    expect(calls.filter((call) => call.path.startsWith('/api/FraudCase'))).toEqual([]);
  });

  it('an auditor gets the list', async () => {
    signIn('auditor');
    stubServer({
      'GET /api/FraudCase': () => json(200, casePageOf([])),
      'GET /api/SchedulingLocal': () => json(200, casePageOf([])),
    });
    renderRoutes(fraudCaseRoutes, '/possiveis-fraudes');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Possíveis fraudes' }),
    ).toBeInTheDocument();
  });
});
