/**
 * The outermost layout: sets the page title from the route, applies the fade
 * between pages, keeps the favicon in step with the theme and hosts the Libras
 * widget (hidden on admin-guarded routes).
 */
import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { LibrasWidget } from '../../components/libras-widget';
import { appStore, useAppState } from '../../lib/app-store';
import { readWebConfig } from '../../lib/config';
import { applyFavicon } from '../../lib/themes';
import { isAdminGuarded, titleFromMatches } from '../route-handle';

const webConfig = readWebConfig();

export function RootLayout() {
  const matches = useMatches();
  const location = useLocation();
  const theme = useAppState((state) => state.theme);
  const title = titleFromMatches(matches);

  useEffect(() => {
    document.title = title;
    appStore.setPageTitle(title);
  }, [title]);

  useEffect(() => {
    applyFavicon(theme);
  }, [theme]);

  return (
    <>
      {/* Keyed by the top-level route: moving inside the shell does not remount the shell. */}
      <div key={matches[1]?.id ?? location.pathname} className="page-fade">
        <Outlet />
      </div>
      <LibrasWidget scriptUrl={webConfig.librasWidgetUrl} hidden={isAdminGuarded(matches)} />
    </>
  );
}
