/**
 * The sign-in screen in a test, stopped after a right password: the server
 * answers `POST api/Auth` with `code` and its pending sign-in (`mfa`), the
 * other routes as given; `passwordStep` types the e-mail and password and
 * waits for the heading of the next step. `secondStepScreen` binds both to
 * one challenge and registers the hooks every such spec needs.
 */
import { SECOND_FACTOR_ERRORS, type MfaChallenge } from '@exame/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, vi } from 'vitest';
import { appStore } from '../lib/app-store';
import { LoginPage } from '../features/auth/components/login-page';
import { renderRoutes } from './render';
import { json, stubServer, type StubHandler } from './stub-server';

export function renderLoginWithSecondStep(
  challenge: MfaChallenge,
  routes: Record<string, StubHandler>,
) {
  const code = challenge.enrolment
    ? 'multi-factor-enrolment-required'
    : 'multi-factor-auth-required';
  const calls = stubServer({
    'POST /api/Auth': () =>
      json(401, { Error: SECOND_FACTOR_ERRORS[code].message, code, mfa: challenge }),
    'GET /api/FederativeUnit': () => json(200, []),
    ...routes,
  });
  const rendered = renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/home', element: <p>início</p> },
    ],
    '/login',
  );
  return { ...rendered, calls };
}

export async function passwordStep(heading: string) {
  await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ana@exemplo.gov.br');
  await userEvent.type(screen.getByLabelText(/^Senha/), 'segredo');
  await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
  return screen.findByRole('heading', { name: heading });
}

/**
 * The sign-in screen stopped at `challenge`'s step, for a `describe`: the
 * console's errors muted (a refused call logs one), stubs, mocks and the
 * session cleared after each test; `renderLogin` renders it with the routes
 * given, `signInWithPassword` types the password up to the step's `heading`.
 */
export function secondStepScreen(challenge: MfaChallenge, heading: string) {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.clearAllMocks();
    appStore.clearSession();
  });
  return {
    renderLogin: (routes: Record<string, StubHandler>) =>
      renderLoginWithSecondStep(challenge, routes),
    signInWithPassword: () => passwordStep(heading),
  };
}
