/** The route table (spec 2). Each route's `handle` carries its title and guard flag. */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page';
import { AdminGuardLayout } from './layouts/admin-guard-layout';
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
      {
        path: '/',
        element: <AppShellLayout />,
        children: [
          { index: true, element: <Navigate to="/home" replace /> },
          { path: 'home', element: <HomePage /> },
        ],
      },
      {
        element: <AdminGuardLayout />,
        handle: handle({ adminGuarded: true }),
        children: [],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
