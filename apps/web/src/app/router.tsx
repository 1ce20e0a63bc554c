/** The route table (spec 2). Each route's `handle` carries its title and guard flag. */
import { EXAMINER_ROLES } from '@exame/shared';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { currentTenant } from '../lib/tenant';
import { LoginPage } from '../features/auth/components/login-page';
import { DemoBiometryPage } from '../features/biometrics/components/demo-biometry-page';
import { DemoContactPage } from '../features/demo/components/demo-contact-page';
import { DemoFinishedPage } from '../features/demo/components/demo-finished-page';
import { PasswordPage } from '../features/auth/components/password-page';
import { CreateUserPage } from '../features/users/components/create-user-page';
import { ExamReportPage } from '../features/exam-report/components/exam-report-page';
import { CheckInsPage } from '../features/check-ins/components/check-ins-page';
import { ViewerCheckinPage } from '../features/check-ins/components/viewer-checkin-page';
import { ChangeExaminerPage } from '../features/check-ins/components/change-examiner-page';
import { ExamRoomPage } from '../features/exam-rooms/components/exam-room-page';
import { FinishedExamsPage } from '../features/exam-rooms/components/finished-exams-page';
import { RoomManagementPage } from '../features/exam-rooms/components/room-management-page';
import { ListUsersPage } from '../features/users/components/list-users-page';
import { ExamDetailPage } from '../features/exams/components/exam-detail-page';
import { ExamListPage } from '../features/exams/components/exam-list-page';
import { IntegrationKeysPage } from '../features/integration/components/integration-keys-page';
import { SchedulingLocalsPage } from '../features/scheduling-locals/components/scheduling-locals-page';
import { DisqualificationReasonsPage } from '../features/disqualification-reasons/components/reasons-page';
import { AuditPage } from '../features/audits/components/audit-page';
import { CertificateCheckPage } from '../features/certificates/components/certificate-check-page';
import { AuditQueuePage } from '../features/audits/components/audit-queue-page';
import { MyAuditPage } from '../features/audits/components/my-audit-page';
import { MyPhotoAuditPage } from '../features/audits/components/my-photo-audit-page';
import { PhotoAuditPage } from '../features/audits/components/photo-audit-page';
import { AdminGuardLayout } from './layouts/admin-guard-layout';
import { AdminOnly, RequireRole } from './layouts/admin-only';
import { AppShellLayout } from './layouts/app-shell-layout';
import { RootLayout } from './layouts/root-layout';
import type { RouteHandle } from './route-handle';
import { DemoRegisterPage } from './routes/demo-register';
import { HomePage } from './routes/home';
import { NotFoundPage } from './routes/not-found';
import { RouteErrorPage } from './routes/route-error';

const handle = (value: RouteHandle) => value;

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/login', element: <LoginPage />, handle: handle({ documentTitle: 'Entrar' }) },
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
              <RequireRole roles={['ADMIN', 'auditor']}>
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
          {
            path: 'auditoria',
            handle: handle({ documentTitle: 'Fila de auditoria' }),
            element: (
              <RequireRole roles={['ADMIN', 'auditor']}>
                <AuditQueuePage />
              </RequireRole>
            ),
          },
          {
            path: 'auditoria/:id',
            handle: handle({ documentTitle: 'Auditoria do exame' }),
            element: (
              <RequireRole roles={['ADMIN', 'auditor']}>
                <AuditPage />
              </RequireRole>
            ),
          },
          {
            path: 'photo-audit/:examId',
            handle: handle({ documentTitle: 'Auditoria de fotos' }),
            element: (
              <RequireRole roles={['ADMIN', 'auditor']}>
                <PhotoAuditPage />
              </RequireRole>
            ),
          },
          {
            path: 'minha-auditoria',
            handle: handle({ documentTitle: 'Minha auditoria' }),
            element: (
              <RequireRole roles={['auditor']}>
                <MyAuditPage />
              </RequireRole>
            ),
          },
          {
            path: 'minha-auditoria-de-fotos',
            handle: handle({ documentTitle: 'Minha auditoria de fotos' }),
            element: (
              <RequireRole roles={['auditor']}>
                <MyPhotoAuditPage />
              </RequireRole>
            ),
          },
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
            path: 'integracao',
            handle: handle({ documentTitle: 'Integração' }),
            element: (
              <AdminOnly>
                <IntegrationKeysPage />
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
