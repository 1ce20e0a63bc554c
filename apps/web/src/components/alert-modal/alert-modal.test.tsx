import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appStore } from '../../lib/app-store';
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { isActionEnabled, sanitizeHtml, useAlert, type AlertOptions } from './alert-modal';

function ShowAlert({ options }: { options: AlertOptions }) {
  const { showAlert } = useAlert();
  useEffect(() => showAlert(options), [showAlert, options]);
  return null;
}

describe('global alert modal', () => {
  it("defaults: title 'Opss...' and one 'Ok' button that closes it", async () => {
    renderWithProviders(<ShowAlert options={{ message: 'Algo falhou.' }} />);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Opss...');
    expect(dialog).toHaveTextContent('Algo falhou.');
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['Ok']);
    await userEvent.click(screen.getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(screen.queryByTestId('alert-modal')).not.toBeInTheDocument());
  });

  it('is named by its title (axe aria-dialog-name), the default one too', async () => {
    const { unmount } = renderWithProviders(
      <ShowAlert
        options={{ title: 'Liberar o resultado', message: 'O resultado será liberado.' }}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Liberar o resultado' });
    expect(screen.getByRole('heading', { name: 'Liberar o resultado' })).toBeInTheDocument();
    expect(dialog.getAttribute('aria-labelledby')).toBe('alert-modal-title');
    expect(screen.getByTestId('alert-modal-title').id).toBe('alert-modal-title');
    unmount();
    renderWithProviders(<ShowAlert options={{ message: 'Algo falhou.' }} />);
    expect(await screen.findByRole('dialog', { name: 'Opss...' })).toBeInTheDocument();
  });

  it('is 340px wide by default', async () => {
    renderWithProviders(<ShowAlert options={{ title: 'Aviso' }} />);
    await screen.findByRole('dialog');
    const root = document.querySelector('[style*="--modal-size"]');
    // Mantine writes sizes in rem: 340px / 16 = 21.25rem.
    expect(root?.getAttribute('style')).toContain('--modal-size: calc(21.25rem');
  });

  it('shows title, detail, custom content and runs the chosen action after closing', async () => {
    const onConfirm = vi.fn();
    renderWithProviders(
      <ShowAlert
        options={{
          title: 'Confirmar',
          message: 'Deseja <b>continuar</b>?',
          detail: 'Esta ação fica registrada.',
          content: <p>Conteúdo extra</p>,
          actions: [{ label: 'Cancelar' }, { label: 'Continuar', onClick: onConfirm }],
        }}
      />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Confirmar');
    expect(dialog.querySelector('b')?.textContent).toBe('continuar');
    expect(dialog).toHaveTextContent('Esta ação fica registrada.');
    expect(dialog).toHaveTextContent('Conteúdo extra');
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(onConfirm).toHaveBeenCalledWith({ reason: '', note: '' });
  });

  it('sanitises the HTML message', async () => {
    renderWithProviders(
      <ShowAlert
        options={{
          message: '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>Oi',
        }}
      />,
    );
    const message = await screen.findByTestId('alert-modal-message');
    expect(message.innerHTML).not.toContain('onerror');
    expect(message.innerHTML).not.toContain('<script');
    expect(message).toHaveTextContent('Oi');
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).not.toContain('javascript:');
  });

  it('an action needing a disqualification reason stays disabled until reason and note are filled', async () => {
    const onDisqualify = vi.fn();
    renderWithProviders(
      <ShowAlert
        options={{
          title: 'Desclassificar candidato',
          disqualificationReasons: [
            { value: 'cola', label: 'Consulta a material não permitido' },
            { value: 'terceiro', label: 'Presença de terceiros' },
          ],
          actions: [
            { label: 'Cancelar' },
            {
              label: 'Desclassificar',
              color: 'red',
              requiresDisqualificationReason: true,
              onClick: onDisqualify,
            },
          ],
        }}
      />,
    );
    await screen.findByRole('dialog');
    const action = screen.getByRole('button', { name: 'Desclassificar' });
    expect(action).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeEnabled();

    await userEvent.type(screen.getByLabelText(/Observação/), 'Candidato consultou o celular.');
    expect(action).toBeDisabled();

    await userEvent.click(screen.getByPlaceholderText('Selecione o motivo'));
    await userEvent.click(await screen.findByRole('option', { name: 'Presença de terceiros' }));
    expect(action).toBeEnabled();

    await userEvent.clear(screen.getByLabelText(/Observação/));
    await userEvent.type(screen.getByLabelText(/Observação/), '   ');
    expect(action).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/Observação/), 'Outra pessoa na sala.');
    expect(action).toBeEnabled();
    // Spec 3: the reason and the note are client state.
    expect(appStore.getState().desclassificationSelectValue).toBe('terceiro');
    expect(appStore.getState().vModelTextArea).toBe('   Outra pessoa na sala.');

    await userEvent.click(action);
    expect(onDisqualify).toHaveBeenCalledWith({
      reason: 'terceiro',
      note: '   Outra pessoa na sala.',
    });
  }, 20_000);

  it('isActionEnabled is the gating rule', () => {
    const gated = { label: 'X', requiresDisqualificationReason: true };
    expect(isActionEnabled(gated, { reason: '', note: '' })).toBe(false);
    expect(isActionEnabled(gated, { reason: 'a', note: '' })).toBe(false);
    expect(isActionEnabled(gated, { reason: '', note: 'b' })).toBe(false);
    expect(isActionEnabled(gated, { reason: 'a', note: 'b' })).toBe(true);
    expect(isActionEnabled({ label: 'Ok' }, { reason: '', note: '' })).toBe(true);
  });
});
