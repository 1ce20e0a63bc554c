import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { UserForm } from './user-form';

describe('user form', () => {
  it('masks the CPF as ddd.ddd.ddd-dd and sends digits only', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderWithProviders(
      <UserForm
        roles={['VIEWER', 'auditor']}
        unitLabel="DF"
        submitLabel="Criar"
        onSubmit={onSubmit}
      />,
    );
    const cpf = screen.getByRole('textbox', { name: /CPF/ });
    await userEvent.type(cpf, '52998224725999');
    expect(cpf).toHaveValue('529.982.247-25');
    await userEvent.type(screen.getByRole('textbox', { name: /Nome completo/ }), 'Ana Souza');
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'Ana@Exemplo.gov.br');
    await userEvent.click(screen.getByPlaceholderText('Selecione o perfil'));
    await userEvent.click(await screen.findByRole('option', { name: 'Examinador' }));
    await userEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Ana Souza',
      email: 'ana@exemplo.gov.br',
      cpf: '52998224725',
      role: 'VIEWER',
    });
  });

  it('shows each problem in pt-BR and sends nothing', async () => {
    const onSubmit = vi.fn();
    renderWithProviders(
      <UserForm roles={['VIEWER']} unitLabel="DF" submitLabel="Criar" onSubmit={onSubmit} />,
    );
    await userEvent.type(screen.getByRole('textbox', { name: /CPF/ }), '11111111111');
    await userEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(await screen.findByText('Informe o nome completo.')).toBeInTheDocument();
    expect(screen.getByText('E-mail inválido.')).toBeInTheDocument();
    expect(screen.getByText('CPF inválido.')).toBeInTheDocument();
    expect(screen.getByText('Selecione um perfil válido.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
