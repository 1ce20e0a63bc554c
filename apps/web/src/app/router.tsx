/** The route table (spec 2). Each route's `handle` carries its title and guard flag. */
import { EXAM_DETAIL_ROLES, EXAMINER_ROLES } from '@exame/shared';
import { lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { currentTenant } from '../lib/tenant';
import { LoginPage } from '../features/auth/components/login-page';
import { AdminGuardLayout } from './layouts/admin-guard-layout';
import { AdminOnly, RequireRole } from './layouts/admin-only';
import { AppShellLayout } from './layouts/app-shell-layout';
import { auditRoutes } from './audit-routes';
import { fraudCaseRoutes } from './fraud-case-routes';
import { RootLayout } from './layouts/root-layout';
import { screenOfPath, type RouteHandle } from './route-handle';
import { NotFoundPage } from './routes/not-found';
import { RouteErrorPage } from './routes/route-error';

/*
 * Route-level code splitting (the first load): the sign-in page, the layouts
 * and the error pages are in the entry script; every other screen is a chunk
 * of its own, fetched the first time it renders (React.lazy). The layouts hold
 * the Suspense boundaries that show the page loader meanwhile; a chunk that
 * fails to load reaches RouteErrorPage like any other rendering error. The
 * common-password list is one more chunk, loaded only by the password pages
 * (features/auth/api/password.ts). bench/first-load.bench.ts measures the
 * sign-in page's scripts against this table with its imports made static.
 */
const PasswordPage = lazy(() =>
  import('../features/auth/components/password-page').then((module) => ({
    default: module.PasswordPage,
  })),
);
const DemoBiometryPage = lazy(() =>
  import('../features/demo/components/demo-biometry-page').then((module) => ({
    default: module.DemoBiometryPage,
  })),
);
const DemoContactPage = lazy(() =>
  import('../features/demo/components/demo-contact-page').then((module) => ({
    default: module.DemoContactPage,
  })),
);
const DemoFinishedPage = lazy(() =>
  import('../features/demo/components/demo-finished-page').then((module) => ({
    default: module.DemoFinishedPage,
  })),
);
const CreateUserPage = lazy(() =>
  import('../features/users/components/create-user-page').then((module) => ({
    default: module.CreateUserPage,
  })),
);
const ListUsersPage = lazy(() =>
  import('../features/users/components/list-users-page').then((module) => ({
    default: module.ListUsersPage,
  })),
);
const ExamReportPage = lazy(() =>
  import('../features/exam-report/components/exam-report-page').then((module) => ({
    default: module.ExamReportPage,
  })),
);
const CheckInsPage = lazy(() =>
  import('../features/check-ins/components/check-ins-page').then((module) => ({
    default: module.CheckInsPage,
  })),
);
const ViewerCheckinPage = lazy(() =>
  import('../features/check-ins/components/viewer-checkin-page').then((module) => ({
    default: module.ViewerCheckinPage,
  })),
);
const ChangeExaminerPage = lazy(() =>
  import('../features/check-ins/components/change-examiner-page').then((module) => ({
    default: module.ChangeExaminerPage,
  })),
);
const ExamRoomPage = lazy(() =>
  import('../features/exam-rooms/components/exam-room-page').then((module) => ({
    default: module.ExamRoomPage,
  })),
);
const FinishedExamsPage = lazy(() =>
  import('../features/exam-rooms/components/finished-exams-page').then((module) => ({
    default: module.FinishedExamsPage,
  })),
);
const RoomManagementPage = lazy(() =>
  import('../features/exam-rooms/components/room-management-page').then((module) => ({
    default: module.RoomManagementPage,
  })),
);
const ExamDetailPage = lazy(() =>
  import('../features/exams/components/exam-detail-page').then((module) => ({
    default: module.ExamDetailPage,
  })),
);
const ExamListPage = lazy(() =>
  import('../features/exams/components/exam-list-page').then((module) => ({
    default: module.ExamListPage,
  })),
);
const IntegrationKeysPage = lazy(() =>
  import('../features/integration/components/integration-keys-page').then((module) => ({
    default: module.IntegrationKeysPage,
  })),
);
const SsoReturnPage = lazy(() =>
  import('../features/auth/components/sso-return-page').then((module) => ({
    default: module.SsoReturnPage,
  })),
);
const SecurityPage = lazy(() =>
  import('../features/auth/components/security-page').then((module) => ({
    default: module.SecurityPage,
  })),
);
const IdentityProvidersPage = lazy(() =>
  import('../features/sign-in-providers/components/identity-providers-page').then((module) => ({
    default: module.IdentityProvidersPage,
  })),
);
const SchedulingLocalsPage = lazy(() =>
  import('../features/scheduling-locals/components/scheduling-locals-page').then((module) => ({
    default: module.SchedulingLocalsPage,
  })),
);
const DisqualificationReasonsPage = lazy(() =>
  import('../features/disqualification-reasons/components/reasons-page').then((module) => ({
    default: module.DisqualificationReasonsPage,
  })),
);
const CertificateCheckPage = lazy(() =>
  import('../features/certificates/components/certificate-check-page').then((module) => ({
    default: module.CertificateCheckPage,
  })),
);
const ActivityPage = lazy(() =>
  import('../features/activity/components/activity-page').then((module) => ({
    default: module.ActivityPage,
  })),
);
const DemoRegisterPage = lazy(() =>
  import('./routes/demo-register').then((module) => ({ default: module.DemoRegisterPage })),
);
const HomePage = lazy(() =>
  import('./routes/home').then((module) => ({ default: module.HomePage })),
);

const handle = (value: RouteHandle) => value;

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/login', element: <LoginPage />, handle: handle({ documentTitle: 'Entrar' }) },
      {
        path: '/login/sso',
        element: <SsoReturnPage />,
        handle: handle({ documentTitle: 'Entrar' }),
      },
      {
        path: '/reset-password/:cpf',
        element: <PasswordPage purpose="reset" />,
        handle: handle({ documentTitle: 'Redefinir senha' }),
      },
      {
        path: '/certificate',
        element: <CertificateCheckPage />,
        handle: handle({ documentTitle: 'Conferir certificado' }),
      },
      {
        path: '/certificate/:schedulingId',
        element: <CertificateCheckPage />,
        handle: handle({ title: 'Certificados' }),
      },
      {
        path: '/register-password/:cpf',
        element: <PasswordPage purpose="register" />,
        handle: handle({ documentTitle: 'Cadastrar senha' }),
      },
      {
        path: '/',
        element: <AppShellLayout />,
        children: [
          { index: true, element: <Navigate to="/home" replace /> },
          { path: 'home', element: <HomePage />, handle: handle({ documentTitle: 'Início' }) },
          {
            // Every role: the account's own second factors and recovery codes.
            path: 'seguranca',
            element: <SecurityPage />,
            handle: handle({ documentTitle: 'Segurança da conta' }),
          },
          {
            path: 'create-users',
            handle: handle({ documentTitle: 'Novo usuário' }),
            element: (
              <AdminOnly>
                <CreateUserPage />
              </AdminOnly>
            ),
          },
          {
            path: 'list-users',
            handle: handle({ documentTitle: 'Usuários' }),
            element: (
              <AdminOnly>
                <ListUsersPage />
              </AdminOnly>
            ),
          },
          {
            path: 'exames',
            handle: handle({ documentTitle: 'Exames' }),
            element: (
              <RequireRole roles={['ADMIN', 'auditor']}>
                <ExamListPage />
              </RequireRole>
            ),
          },
          {
            path: 'exames/:schedulingId',
            handle: handle({ documentTitle: 'Exame' }),
            element: (
              <RequireRole roles={EXAM_DETAIL_ROLES}>
                <ExamDetailPage />
              </RequireRole>
            ),
          },
          {
            path: 'scheduling-locals',
            handle: handle({ documentTitle: 'Postos de atendimento' }),
            element: (
              <AdminOnly>
                <SchedulingLocalsPage />
              </AdminOnly>
            ),
          },
          {
            path: 'justificativas',
            handle: handle({ documentTitle: 'Justificativas' }),
            element: (
              <AdminOnly>
                <DisqualificationReasonsPage />
              </AdminOnly>
            ),
          },
          ...auditRoutes,
          ...fraudCaseRoutes,
          {
            path: 'viewer-checkin',
            handle: handle({ title: 'Sala de prova' }),
            element: (
              <RequireRole roles={EXAMINER_ROLES}>
                <ViewerCheckinPage />
              </RequireRole>
            ),
          },
          {
            path: 'room-management',
            handle: handle({ documentTitle: 'Salas de prova' }),
            element: (
              <RequireRole roles={['ADMIN', 'ROOM_INSPECTOR']}>
                <RoomManagementPage />
              </RequireRole>
            ),
          },
          {
            path: 'exam-room/:examRoomId',
            handle: handle({ title: 'Sala de prova' }),
            element: <ExamRoomPage />,
          },
          {
            path: 'change-examiner',
            handle: handle({ documentTitle: 'Transferir a sala' }),
            element: (
              // The examiner's own open room is transferred; ADMIN closes rooms in /check-ins.
              <RequireRole roles={EXAMINER_ROLES}>
                <ChangeExaminerPage />
              </RequireRole>
            ),
          },
          {
            path: 'finished-exam-view',
            handle: handle({ title: 'Emissão de certificados' }),
            element: <FinishedExamsPage />,
          },
          {
            path: 'check-ins',
            handle: handle({ documentTitle: 'Entradas nas salas' }),
            element: (
              <RequireRole roles={['ADMIN', 'auditor']}>
                <CheckInsPage />
              </RequireRole>
            ),
          },
          {
            path: 'atividades',
            handle: handle({ documentTitle: 'Atividades' }),
            element: (
              <AdminOnly>
                <ActivityPage screenOf={(path) => screenOfPath(routes, path)} />
              </AdminOnly>
            ),
          },
          {
            path: 'integracao',
            handle: handle({ documentTitle: 'Integração' }),
            element: (
              <AdminOnly>
                <IntegrationKeysPage />
              </AdminOnly>
            ),
          },
          {
            path: 'provedores-de-identidade',
            handle: handle({ documentTitle: 'Provedores de identidade' }),
            element: (
              <AdminOnly>
                <IdentityProvidersPage />
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
            path: '/demo-biometry/:cpf',
            element: <DemoBiometryPage />,
            handle: handle({ adminGuarded: true, documentTitle: 'Biometria facial' }),
          },
          {
            path: '/demo-register',
            element: <DemoRegisterPage />,
            handle: handle({ adminGuarded: true, documentTitle: 'Cadastro de demonstração' }),
          },
          {
            path: '/demo-register2',
            element: <DemoContactPage />,
            handle: handle({ adminGuarded: true, documentTitle: 'Contato e consentimento' }),
          },
          {
            path: '/demo-finished',
            element: <DemoFinishedPage />,
            handle: handle({ adminGuarded: true, documentTitle: 'Demonstração concluída' }),
          },
          {
            path: '/exam-report/:id',
            element: <ExamReportPage />,
            handle: handle({ adminGuarded: true, documentTitle: 'Relatório dos postos' }),
          },
        ],
      },
      {
        path: '*',
        element: <NotFoundPage />,
        handle: handle({ documentTitle: 'Página não encontrada' }),
      },
    ],
  },
];

/** Under the path form of the tenant (`/df/...`) every route keeps the prefix. */
export function createAppRouter() {
  return createBrowserRouter(routes, { basename: currentTenant().basename || undefined });
}
