/**
 * Admin-guarded routes (spec 2): a visitor without a session goes to /login, a
 * signed-in user who is not ADMIN sees the access-denied page. The server
 * enforces the same rule on every call these screens make.
 */
import { Outlet } from 'react-router';
import { useAppState } from '../../lib/app-store';
import { AccessDeniedPage } from '../routes/access-denied';
import { RequireUser } from './require-user';

export function AdminGuardLayout() {
  const role = useAppState((state) => state.user?.roleDescription);
  return (
    <RequireUser>
      {role === 'ADMIN' ? <Outlet /> : <AccessDeniedPage roles={['ADMIN']} />}
    </RequireUser>
  );
}
