import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appStore } from '../lib/app-store';
import { renderRoutes } from '../test/render';
import { RootLayout } from './layouts/root-layout';
import { titleFromMatches } from './route-handle';

describe('page title', () => {
  const routes = [
    {
      element: <RootLayout />,
      children: [
        { path: '/viewer-checkin', element: <p>sala</p>, handle: { title: 'Sala de prova' } },
        { path: '/sem-titulo', element: <p>sem título</p> },
        {
          path: '/certificate',
          handle: { title: 'Pai' },
          children: [
            {
              path: ':schedulingId',
              element: <p>certificado</p>,
              handle: { title: 'Certificados' },
            },
          ],
        },
      ],
    },
  ];

  it("comes from the route's title", async () => {
    renderRoutes(routes, '/viewer-checkin');
    await screen.findByText('sala');
    await waitFor(() => expect(document.title).toBe('Sala de prova'));
    expect(appStore.getState().pageTitle).toBe('Sala de prova');
  });

  it('is empty when the route has none', async () => {
    document.title = 'anterior';
    renderRoutes(routes, '/sem-titulo');
    await screen.findByText('sem título');
    await waitFor(() => expect(document.title).toBe(''));
    expect(appStore.getState().pageTitle).toBe('');
  });

  it('uses the route being shown, not its parent', async () => {
    renderRoutes(routes, '/certificate/ABC');
    await screen.findByText('certificado');
    await waitFor(() => expect(document.title).toBe('Certificados'));
  });

  it('titleFromMatches reads only the deepest match', () => {
    const match = (handle: unknown) => ({
      id: '',
      pathname: '',
      params: {},
      data: undefined,
      loaderData: undefined,
      handle,
    });
    expect(titleFromMatches([match({ title: 'Pai' }), match(undefined)])).toBe('');
    expect(titleFromMatches([])).toBe('');
  });
});
