/** A screen of the shell reserved to ADMIN (the server enforces the same on its calls). */
import type { ReactNode } from 'react';
import { useAppState } from '../../lib/app-store';
import { AccessDeniedPage } from '../routes/access-denied';

export function AdminOnly({ children }: { children: ReactNode }) {
  const role = useAppState((state) => state.user?.roleDescription);
  return role === 'ADMIN' ? <>{children}</> : <AccessDeniedPage />;
}
