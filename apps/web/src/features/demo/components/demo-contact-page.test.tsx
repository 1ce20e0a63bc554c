/**
 * Step 2 of the demonstration (`/demo-register2/?cpf=`): the whole consent
 * text with its version; nothing is sent until the box is checked by hand;
 * then `consent: true` goes with BIOMETRIC_CONSENT_VERSION and the flow
 * goes on to the biometry. Without `?cpf=` the way back to step 1 is shown.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BIOMETRIC_CONSENT_TEXT, BIOMETRIC_CONSENT_VERSION } from '@exame/shared';
import { demoCandidateOf } from '../../../test/demo-data';
import { TEST_USER } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { DemoContactPage } from './demo-contact-page';
import { signInForEachTest } from '../../../test/signed-in';

const CANDIDATE = demoCandidateOf({ email: null, phone: null, consent: null });

const user = userEvent.setup({ delay: null });

const renderPage = (path: string) =>
  renderRoutes(
    [
      { path: '/demo-register2', element: <DemoContactPage /> },
      { path: '/demo-biometry/:cpf', element: <p>etapa 3</p> },
      { path: '/demo-register', element: <p>etapa 1</p> },
    ],
    path,
  );

describe('demo contact and consent, step 2', () => {
  signInForEachTest({ ...TEST_USER, federativeUnit: 'DEMO', roleDescription: 'ADMIN' });

  it('without ?cpf= points back to step 1', async () => {
    stubServer({});
    renderPage('/demo-register2');
    expect(await screen.findByText('Nenhum candidato informado')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: /Voltar à etapa 1/ }));
    expect(await screen.findByText('etapa 1')).toBeInTheDocument();
  });

  it('refuses without the explicit checkbox, then sends consent with the version', async () => {
    const calls = stubServer({
      'GET /api/Demo/candidates/52998224725': () => json(200, CANDIDATE),
      'PUT /api/Demo/candidates/52998224725/contact': () => json(200, CANDIDATE),
    });
    renderPage('/demo-register2?cpf=529.982.247-25');
    expect(await screen.findByText('Bruna Lima')).toBeInTheDocument();
    expect(screen.getByTestId('consent-text')).toHaveTextContent(BIOMETRIC_CONSENT_TEXT);
    expect(screen.getByText(`Versão do texto: ${BIOMETRIC_CONSENT_VERSION}`)).toBeInTheDocument();
    const consent = screen.getByRole('checkbox', { name: /Li e concordo/ });
    expect(consent).not.toBeChecked();

    await user.click(screen.getByLabelText(/E-mail/));
    await user.paste('Bruna@Exemplo.com');
    await user.click(screen.getByLabelText(/Telefone/));
    await user.paste('61999991234');
    expect(screen.getByLabelText(/Telefone/)).toHaveValue('(61) 99999-1234');
    await user.click(screen.getByText('Registrar e continuar'));
    expect(
      await screen.findByText(
        'O consentimento explícito é necessário para o tratamento dos dados biométricos.',
      ),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.click(consent);
    await user.click(screen.getByText('Registrar e continuar'));
    expect(await screen.findByText('etapa 3')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      email: 'bruna@exemplo.com',
      phone: '61999991234',
      consent: true,
      consentVersion: BIOMETRIC_CONSENT_VERSION,
    });
  });
});
