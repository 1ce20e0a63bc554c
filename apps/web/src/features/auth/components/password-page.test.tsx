import { AUTH_ERRORS } from '@exame/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { PasswordPage, tokenFromHash } from './password-page';

const policy = {
  schemaVersion: 1,
  enforcementState: 'ENFORCE',
  customStrengthOptions: {
    minPasswordLength: 8,
    containsUppercaseCharacter: true,
    containsNumericCharacter: true,
  },
};

describe('password page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the token from the fragment', () => {
    expect(tokenFromHash('#token=abcdefghijklmnopqrstuvwxyz_-0123')).toBe(
      'abcdefghijklmnopqrstuvwxyz_-0123',
    );
    expect(tokenFromHash('#token=curto')).toBeNull();
    expect(tokenFromHash('')).toBeNull();
  });

  it('shows each unmet criterion live and enables saving only when all are met and both fields agree', async () => {
    const calls: Array<{ url: string; body?: string }> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body as string | undefined });
      if (url.endsWith('password-policy'))
        return new Response(JSON.stringify(policy), { status: 200 });
      return new Response(JSON.stringify({ message: 'Senha cadastrada com sucesso.' }), {
        status: 200,
      });
    });
    const { router } = renderRoutes(
      [{ path: '/register-password/:cpf', element: <PasswordPage purpose="register" /> }],
      '/register-password/52998224725#token=abcdefghijklmnopqrstuvwxyz0123456789',
    );
    // The token is read, then cleared from the address (and the entry replaced, not added).
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    expect(router.state.location.pathname).toBe('/register-password/52998224725');
    expect(router.state.historyAction).toBe('REPLACE');
    const input = await screen
      .findByRole('textbox', { name: 'Nova senha' })
      .catch(() => screen.getByLabelText(/^Nova senha/));
    const checklist = await screen.findByTestId('password-checklist');
    const unmet = () =>
      Array.from(checklist.querySelectorAll('[data-met="false"]')).map((item) =>
        item.textContent?.replace(/^Pendente: /, ''),
      );
    await waitFor(() =>
      expect(unmet()).toEqual([
        'Pelo menos 8 caracteres',
        'Uma letra maiúscula',
        'Um número',
        'Não ser uma senha comum',
      ]),
    );
    await userEvent.type(input, 'password');
    expect(unmet()).toEqual(['Uma letra maiúscula', 'Um número', 'Não ser uma senha comum']);
    await userEvent.clear(input);
    await userEvent.type(input, 'qzvbnmtr');
    expect(unmet()).toEqual(['Uma letra maiúscula', 'Um número']);
    await userEvent.type(input, 'X1');
    await waitFor(() => expect(unmet()).toEqual([]));
    const save = screen.getByRole('button', { name: 'Salvar senha' });
    expect(save).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/^Confirme a nova senha/), 'qzvbnmtrX');
    expect(screen.getByText('As senhas não conferem.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Confirme a nova senha/), '1');
    expect(save).toBeEnabled();
    await userEvent.click(save);
    expect(await screen.findByText('Senha cadastrada com sucesso.')).toBeInTheDocument();
    const patch = calls.find((call) => call.url.endsWith('api/User/password'));
    expect(JSON.parse(patch?.body ?? '{}')).toEqual({
      cpf: '52998224725',
      token: 'abcdefghijklmnopqrstuvwxyz0123456789',
      password: 'qzvbnmtrX1',
    });
  });

  it('a valid link of a disabled account: says so and whom to ask, and the form goes away', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', async (url: string) =>
      url.endsWith('password-policy')
        ? new Response(JSON.stringify(policy), { status: 200 })
        : new Response(
            JSON.stringify({ Error: AUTH_ERRORS['user-disabled'].message, code: 'user-disabled' }),
            { status: 403 },
          ),
    );
    renderRoutes(
      [
        { path: '/reset-password/:cpf', element: <PasswordPage purpose="reset" /> },
        { path: '/login', element: <p>login</p> },
      ],
      '/reset-password/52998224725#token=abcdefghijklmnopqrstuvwxyz0123456789',
    );
    const input = await screen.findByLabelText(/^Nova senha/);
    await userEvent.type(input, 'Qzvbnmtr1');
    await userEvent.type(screen.getByLabelText(/^Confirme a nova senha/), 'Qzvbnmtr1');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Salvar senha' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Salvar senha' }));

    const alert = await screen.findByTestId('password-error');
    expect(alert).toHaveTextContent('Conta desativada');
    expect(alert).toHaveTextContent('administrador da sua unidade');
    expect(alert).not.toHaveTextContent('inválido');
    expect(screen.queryByLabelText(/^Nova senha/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Salvar senha' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Voltar ao login' })).toHaveAttribute('href', '/login');
  });

  it('without a token explains the link is invalid and offers a new one', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(policy), { status: 200 }));
    renderRoutes(
      [{ path: '/reset-password/:cpf', element: <PasswordPage purpose="reset" /> }],
      '/reset-password/52998224725',
    );
    expect(await screen.findByText(/link está incompleto ou é inválido/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Esqueci minha senha' })).toBeInTheDocument();
  });
});
