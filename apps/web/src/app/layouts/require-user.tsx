/** Routes under / need a signed-in user; others are sent to /login (spec 2, 6). */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAppState } from '../../lib/app-store';

export function RequireUser({ children }: { children: ReactNode }) {
  const user = useAppState((state) => state.user);
  const location = useLocation();
  if (!user) {
    return (
      <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  }
  return <>{children}</>;
}
