import type { Role } from '@exame/shared';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { appStore } from '../../lib/app-store';
import { renderRoutes } from '../../test/render';
import { RequireRole } from '../layouts/admin-only';
import { AdminGuardLayout } from '../layouts/admin-guard-layout';
import { routes } from '../router';
import { listProfiles } from './access-denied';
import { TEST_USER } from '../../test/fixtures';

function signIn(role: Role) {
  appStore.setUser({ ...TEST_USER, roleDescription: role });
}

describe('access denied', () => {
  afterEach(() => appStore.setUser(null));

  it('names the profiles of the page it refused', async () => {
    signIn('VIEWER');
    renderRoutes(
      [
        {
          path: '/exames',
          element: (
            <RequireRole roles={['ADMIN', 'auditor']}>
              <p>lista</p>
            </RequireRole>
          ),
        },
      ],
      '/exames',
    );
    expect(await screen.findByTestId('allowed-profiles')).toHaveTextContent(
      'Esta página é para os perfis Administrador e Auditor.',
    );
    expect(screen.queryByText('lista')).toBeNull();
    expect(screen.queryByText(/exclusiva para administradores/)).toBeNull();
  });

  it('an admin-guarded page is for the ADMIN profile', async () => {
    signIn('auditor');
    renderRoutes(
      [{ element: <AdminGuardLayout />, children: [{ path: '/demo', element: <p>demo</p> }] }],
      '/demo',
    );
    expect(await screen.findByTestId('allowed-profiles')).toHaveTextContent(
      'Esta página é para o perfil Administrador.',
    );
  });

  it('the route table gives /exames to ADMIN and auditor', () => {
    const shell = routes.flatMap((route) => route.children ?? []);
    const exames = shell
      .flatMap((route) => [route, ...(route.children ?? [])])
      .find((route) => route.path === 'exames');
    const element = exames?.element as { props?: { roles?: Role[] } } | undefined;
    expect(element?.props?.roles).toEqual(['ADMIN', 'auditor']);
  });

  it('lists profiles in pt-BR', () => {
    expect(listProfiles(['ADMIN'])).toBe('Administrador');
    expect(listProfiles(['ADMIN', 'auditor', 'VIEWER'])).toBe(
      'Administrador, Auditor e Examinador',
    );
  });
});
