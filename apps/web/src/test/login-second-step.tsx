/**
 * The sign-in screen in a test, stopped after a right password: the server
 * answers `POST api/Auth` with `code` and its pending sign-in (`mfa`), the
 * other routes as given; `passwordStep` types the e-mail and password and
 * waits for the heading of the next step.
 */
import { SECOND_FACTOR_ERRORS, type MfaChallenge } from '@exame/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
