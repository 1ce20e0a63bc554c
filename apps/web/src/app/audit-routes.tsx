/**
 * The routes of the audit (the queue, an exam's audit, the photo audit and
 * the auditors' own lists), spread into the app shell's children by
 * router.tsx. Each screen is a chunk of its own, like the others of the
 * route table.
 */
import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import { RequireRole } from './layouts/admin-only';
import type { RouteHandle } from './route-handle';

const AuditPage = lazy(() =>
  import('../features/audits/components/audit-page').then((module) => ({
    default: module.AuditPage,
  })),
);
const AuditQueuePage = lazy(() =>
  import('../features/audits/components/audit-queue-page').then((module) => ({
    default: module.AuditQueuePage,
  })),
);
const MyAuditPage = lazy(() =>
  import('../features/audits/components/my-audit-page').then((module) => ({
    default: module.MyAuditPage,
  })),
);
const MyPhotoAuditPage = lazy(() =>
  import('../features/audits/components/my-photo-audit-page').then((module) => ({
    default: module.MyPhotoAuditPage,
  })),
);
const PhotoAuditPage = lazy(() =>
  import('../features/audits/components/photo-audit-page').then((module) => ({
    default: module.PhotoAuditPage,
  })),
);

const handle = (value: RouteHandle) => value;

export const auditRoutes: RouteObject[] = [
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
];
