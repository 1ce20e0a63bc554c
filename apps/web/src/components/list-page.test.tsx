import { Table } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { ACTIONS_COLUMN, ListPage, usePagedSearch } from './list-page';

type Page = {
  items: Array<{ id: string; name: string }>;
  total: number;
  totalCapped?: boolean;
  totalEstimated?: boolean;
};

function query(state: Partial<UseQueryResult<Page, Error>>): UseQueryResult<Page, Error> {
  return {
    isPending: false,
    isError: false,
    data: undefined,
    error: null,
    ...state,
  } as UseQueryResult<Page, Error>;
}

function Users({ result }: { result: UseQueryResult<Page, Error> }) {
  const paging = usePagedSearch(10);
  return (
    <ListPage
      title="Usuários"
      description="Usuários da unidade DF"
      search={{ label: 'Buscar usuários', placeholder: 'Buscar' }}
      query={result}
      loadingLabel="Carregando usuários"
      empty="Nenhum usuário cadastrado na unidade."
      paging={paging}
      noun={['usuário', 'usuários']}
      columns={['Nome', ACTIONS_COLUMN]}
      minWidth={400}
      row={(user) => (
        <>
          <Table.Td>{user.name}</Table.Td>
          <Table.Td />
        </>
      )}
      below={<p data-testid="paging">{`${paging.page}/${paging.pageSize}`}</p>}
    />
  );
}

describe('list page', () => {
  it('says "mais de" when the server stopped counting', () => {
    renderWithProviders(
      <Users
        result={query({
          data: { items: [{ id: '1', name: 'Ana' }], total: 10_000, totalCapped: true },
        })}
      />,
    );
    expect(screen.getByText('mais de 10.000 usuários')).toBeInTheDocument();
  });

  it('says "cerca de" when the total is the server’s estimate', () => {
    renderWithProviders(
      <Users
        result={query({
          data: { items: [{ id: '1', name: 'Ana' }], total: 35_000, totalEstimated: true },
        })}
      />,
    );
    expect(screen.getByText('cerca de 35.000 usuários')).toBeInTheDocument();
  });

  it('shows the header, the search and the loading state', () => {
    renderWithProviders(<Users result={query({ isPending: true })} />);
    expect(screen.getByRole('heading', { name: 'Usuários' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Buscar usuários' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Carregando usuários' })).toBeInTheDocument();
  });

  it('shows the error titled "Erro" and the empty sentence', () => {
    const { unmount } = renderWithProviders(
      <Users result={query({ isError: true, error: new Error('Falhou.') })} />,
    );
    expect(screen.getByText('Erro')).toBeInTheDocument();
    expect(screen.getByText('Falhou.')).toBeInTheDocument();
    unmount();
    renderWithProviders(<Users result={query({ data: { items: [], total: 0 } })} />);
    expect(screen.getByText('Nenhum usuário cadastrado na unidade.')).toBeInTheDocument();
  });

  it('shows the table and the footer; a new page size or search starts on page 1', async () => {
    renderWithProviders(
      <Users
        result={query({
          data: {
            items: [
              { id: '1', name: 'Ana' },
              { id: '2', name: 'Bia' },
            ],
            total: 45,
          },
        })}
      />,
    );
    expect(screen.getByRole('cell', { name: 'Ana' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Ações' })).toBeInTheDocument();
    expect(screen.getByText('45 usuários')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Página 3' }));
    expect(screen.getByTestId('paging')).toHaveTextContent('3/10');
    await userEvent.click(screen.getByRole('combobox', { name: 'Itens por página' }));
    await userEvent.click(await screen.findByRole('option', { name: '20 por página' }));
    expect(screen.getByTestId('paging')).toHaveTextContent('1/20');
    await userEvent.click(screen.getByRole('button', { name: 'Página 2' }));
    expect(screen.getByTestId('paging')).toHaveTextContent('2/20');
    await userEvent.type(screen.getByRole('textbox', { name: 'Buscar usuários' }), 'a');
    expect(screen.getByTestId('paging')).toHaveTextContent('1/20');
  });
});
