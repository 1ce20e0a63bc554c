/**
 * Route-level code splitting: every screen of the route table but the sign-in
 * page and the not-found page is loaded on demand (React.lazy), so the entry
 * script does not carry them; while one arrives, the layout shows a status
 * that reads "Carregando…".
 */
import { screen, waitFor } from '@testing-library/react';
import { isValidElement, type ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../lib/app-store';
import { renderRoutes } from '../test/render';
import { stubServer } from '../test/stub-server';
import { AdminOnly, RequireRole } from './layouts/admin-only';
import { routes } from './router';

const LAZY = Symbol.for('react.lazy');
const EAGER_SCREENS = ['/login', '/*'];

/** The screen a route shows: its element, without the role guards around it. */
function screenOf(element: ReactElement): ReactElement {
  const props = element.props as { children?: unknown };
  if (
    (element.type === RequireRole || element.type === AdminOnly) &&
    isValidElement(props.children)
  ) {
    return screenOf(props.children);
  }
  return element;
}

function leaves(list: RouteObject[], prefix = ''): Array<{ path: string; element: ReactElement }> {
  return list.flatMap((route) => {
    const path = route.path ? `${prefix}/${route.path}`.replace(/\/+/g, '/') : prefix;
    if (route.children) return leaves(route.children, path);
    if (route.index || !isValidElement(route.element)) return [];
    return [{ path, element: screenOf(route.element) }];
  });
}

describe('lazy routes', () => {
  beforeEach(() => {
    appStore.clearSession();
    stubServer({});
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('every screen but the sign-in and not-found pages is loaded on demand', () => {
    const screens = leaves(routes);
    expect(screens.length).toBeGreaterThan(20);
    const eager = screens
      .filter(({ element }) => (element.type as { $$typeof?: symbol }).$$typeof !== LAZY)
      .map(({ path }) => path);
    expect(eager).toEqual(EAGER_SCREENS);
  });

  it('shows "Carregando…" in a status region until the screen arrives', async () => {
    renderRoutes(routes, '/certificate');
    expect(screen.getByRole('status')).toHaveTextContent('Carregando…');
    expect(
      await screen.findByRole('heading', { name: 'Conferir certificado' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Carregando…')).toBeNull());
  });
});
