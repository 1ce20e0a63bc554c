/** The route table (spec 2). Each route's `handle` carries its title and guard flag. */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page';
import { PasswordPage } from '../features/auth/components/password-page';
import { CreateUserPage } from '../features/users/components/create-user-page';
import { DemoRegisterPage } from '../features/users/components/demo-register-page';
import { ListUsersPage } from '../features/users/components/list-users-page';
import { AdminGuardLayout } from './layouts/admin-guard-layout';
import { AdminOnly } from './layouts/admin-only';
import { AppShellLayout } from './layouts/app-shell-layout';
import { RootLayout } from './layouts/root-layout';
import type { RouteHandle } from './route-handle';
import { HomePage } from './routes/home';
import { NotFoundPage } from './routes/not-found';
import { RouteErrorPage } from './routes/route-error';

const handle = (value: RouteHandle) => value;

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/reset-password/:cpf', element: <PasswordPage purpose="reset" /> },
      { path: '/register-password/:cpf', element: <PasswordPage purpose="register" /> },
      {
        path: '/',
        element: <AppShellLayout />,
        children: [
          { index: true, element: <Navigate to="/home" replace /> },
          { path: 'home', element: <HomePage /> },
          {
            path: 'create-users',
            element: (
              <AdminOnly>
                <CreateUserPage />
              </AdminOnly>
            ),
          },
          {
            path: 'list-users',
            element: (
              <AdminOnly>
                <ListUsersPage />
              </AdminOnly>
            ),
          },
        ],
      },
      {
        element: <AdminGuardLayout />,
        handle: handle({ adminGuarded: true }),
        children: [
          {
            path: '/demo-register',
            element: <DemoRegisterPage />,
            handle: handle({ adminGuarded: true }),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
