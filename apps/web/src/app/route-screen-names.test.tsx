/**
 * The route table names the app's addresses for the activity screen: a page
 * view of `/auditoria/<id>` reads "Auditoria do exame", as its tab does.
 */
import { describe, expect, it } from 'vitest';
import { screenOfPath } from './route-handle';
import { routes } from './router';

describe('screen names from the route table', () => {
  it('names each page by its title or tab name, with the parameters of its route', () => {
    expect(screenOfPath(routes, '/auditoria/7d3f0a52-9c1b-4e2a-8f4d-0b6c5e1a2f90')).toEqual({
      name: 'Auditoria do exame',
      params: { id: '7d3f0a52-9c1b-4e2a-8f4d-0b6c5e1a2f90' },
    });
    expect(screenOfPath(routes, '/exames/DF-000123')).toMatchObject({
      name: 'Exame',
      params: { schedulingId: 'DF-000123' },
    });
    expect(screenOfPath(routes, '/possiveis-fraudes')?.name).toBe('Possíveis fraudes');
    expect(screenOfPath(routes, '/possiveis-fraudes/f0000000-0000-4000-8000-000000000007')).toEqual(
      {
        name: 'Caso — Possíveis fraudes',
        params: { id: 'f0000000-0000-4000-8000-000000000007' },
      },
    );
    expect(screenOfPath(routes, '/viewer-checkin')?.name).toBe('Sala de prova');
    expect(screenOfPath(routes, '/atividades')?.name).toBe('Atividades');
    expect(screenOfPath(routes, '/seguranca')?.name).toBe('Segurança da conta');
    expect(screenOfPath(routes, '/exam-report/all')?.name).toBe('Relatório dos postos');
    // The index only redirects: no name of its own.
    expect(screenOfPath(routes, '/')).toBeNull();
    expect(screenOfPath(routes, '/nao-existe')?.name).toBe('Página não encontrada');
  });
});
