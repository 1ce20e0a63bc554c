import { render, renderHook, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders, createQueryClient } from '../app/providers';

export function renderWithProviders(ui: ReactElement): RenderResult {
  return render(
    <AppProviders queryClient={createQueryClient()} env="test">
      {ui}
    </AppProviders>,
  );
}

export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const result = render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}

/** Runs a hook inside the app's providers, with a fresh query client. */
export function renderHookWithProviders<Result>(hook: () => Result) {
  const queryClient = createQueryClient();
  return renderHook(hook, {
    wrapper: ({ children }: { children: ReactNode }) => (
      <AppProviders queryClient={queryClient} env="test">
        {children}
      </AppProviders>
    ),
  });
}
