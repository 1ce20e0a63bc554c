/**
 * The routes of "Possíveis fraudes" (ADMIN and auditors; an examiner meets the
 * access-denied page), spread into the app shell's children by router.tsx.
 * Each screen is a chunk of its own, like the others of the route table.
 */
import { FRAUD_CASE_ROLES } from '@exame/shared';
import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import { RequireRole } from './layouts/admin-only';
import type { RouteHandle } from './route-handle';

const FraudCaseListPage = lazy(() =>
  import('../features/fraud-cases/components/fraud-case-list-page').then((module) => ({
    default: module.FraudCaseListPage,
  })),
);
const FraudCasePage = lazy(() =>
  import('../features/fraud-cases/components/fraud-case-page').then((module) => ({
    default: module.FraudCasePage,
  })),
);

const handle = (value: RouteHandle) => value;

export const fraudCaseRoutes: RouteObject[] = [
  {
    path: 'possiveis-fraudes',
    handle: handle({ documentTitle: 'Possíveis fraudes' }),
    element: (
      <RequireRole roles={FRAUD_CASE_ROLES}>
        <FraudCaseListPage />
      </RequireRole>
    ),
  },
  {
    // The page names the tab with the case's number once it has read it.
    path: 'possiveis-fraudes/:id',
    handle: handle({ documentTitle: 'Caso — Possíveis fraudes' }),
    element: (
      <RequireRole roles={FRAUD_CASE_ROLES}>
        <FraudCasePage />
      </RequireRole>
    ),
  },
];
