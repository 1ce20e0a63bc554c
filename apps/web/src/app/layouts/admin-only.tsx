/** Screens of the shell reserved to some roles (the server enforces the same on their calls). */
import type { Role } from '@exame/shared';
import type { ReactNode } from 'react';
import { useAppState } from '../../lib/app-store';
import { AccessDeniedPage } from '../routes/access-denied';

export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const role = useAppState((state) => state.user?.roleDescription);
  return role && roles.includes(role) ? <>{children}</> : <AccessDeniedPage roles={roles} />;
}

export function AdminOnly({ children }: { children: ReactNode }) {
  return <RequireRole roles={['ADMIN']}>{children}</RequireRole>;
}
