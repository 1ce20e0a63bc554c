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
        { path: '/exames', element: <p>exames</p>, handle: { documentTitle: 'Exames' } },
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
    await waitFor(() => expect(document.title).toBe('Sala de prova · Exame Teórico'));
    expect(appStore.getState().pageTitle).toBe('Sala de prova');
  });

  it('is empty when the route has none', async () => {
    document.title = 'anterior';
    renderRoutes(routes, '/sem-titulo');
    await screen.findByText('sem título');
    // The page title stays empty (spec 2); the browser tab still names the product.
    await waitFor(() => expect(document.title).toBe('Exame Teórico'));
    expect(appStore.getState().pageTitle).toBe('');
  });

  it('uses the route being shown, not its parent', async () => {
    renderRoutes(routes, '/certificate/ABC');
    await screen.findByText('certificado');
    await waitFor(() => expect(document.title).toBe('Certificados · Exame Teórico'));
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

  it('a route without a specified title names the browser tab, not the page', async () => {
    renderRoutes(routes, '/exames');
    await screen.findByText('exames');
    await waitFor(() => expect(document.title).toBe('Exames · Exame Teórico'));
    expect(appStore.getState().pageTitle).toBe('');
  });

  it('every screen of the app has a document title of its own', async () => {
    const { routes: appRoutes } = await import('./router');
    const missing: string[] = [];
    const visit = (list: typeof appRoutes, prefix: string) => {
      for (const route of list) {
        const path = route.path ? `${prefix}/${route.path}`.replace(/\/+/g, '/') : prefix;
        const handle = (route.handle ?? {}) as { title?: string; documentTitle?: string };
        const isScreen = route.element && !route.children && !route.index;
        if (isScreen && !handle.title && !handle.documentTitle) missing.push(path || '/');
        if (route.children) visit(route.children, path);
      }
    };
    visit(appRoutes, '');
    expect(missing).toEqual([]);
  });
});
