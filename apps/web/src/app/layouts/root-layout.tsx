/**
 * The outermost layout: sets the page title from the route (and the document
 * title: the route's title or tab name and the product name), applies the fade
 * between pages, shows the page loader while a screen's code arrives, keeps
 * the favicon in step with the theme and hosts the Libras widget (hidden on
 * admin-guarded routes). Each navigation of a signed-in user is a `page_view`
 * of the activity log.
 */
import { PRODUCT_NAME } from '@exame/shared';
import { Suspense, useEffect, useLayoutEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { LibrasWidget } from '../../components/libras-widget';
import { PageLoader } from '../../components/page-loader';
import { recordPageView } from '../../lib/activity/activity-log';
import { appStore, useAppState } from '../../lib/app-store';
import { readWebConfig } from '../../lib/config';
import { applyFavicon } from '../../lib/themes';
import { documentTitleFromMatches, isAdminGuarded, titleFromMatches } from '../route-handle';

const webConfig = readWebConfig();

export function RootLayout() {
  const matches = useMatches();
  const location = useLocation();
  const theme = useAppState((state) => state.theme);
  const title = titleFromMatches(matches);
  const documentTitle = documentTitleFromMatches(matches, PRODUCT_NAME);

  // A layout effect, before the screens' effects: a screen may name the tab more precisely
  // once it knows what it shows (useDocumentTitle, e.g. "Caso nº 3 — Possíveis fraudes").
  useLayoutEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);
  useEffect(() => {
    appStore.setPageTitle(title);
  }, [title]);

  // One page view per navigation (a new location key), also to the same path again.
  // Read at the navigation, not subscribed: signing in on /login is not a view of /login.
  useEffect(() => {
    if (appStore.getState().user) recordPageView(location.key, location.pathname);
  }, [location.key, location.pathname]);

  useEffect(() => {
    applyFavicon(theme);
  }, [theme]);

  return (
    <>
      {/*
       * The screens outside the shell arrive as chunks of their own: the loader
       * shows on a first load; a navigation (a transition) keeps the page being
       * left on screen until the next one is ready.
       */}
      <Suspense fallback={<PageLoader />}>
        {/* Keyed by the top-level route: moving inside the shell does not remount the shell. */}
        <div key={matches[1]?.id ?? location.pathname} className="page-fade">
          <Outlet />
        </div>
      </Suspense>
      <LibrasWidget scriptUrl={webConfig.librasWidgetUrl} hidden={isAdminGuarded(matches)} />
    </>
  );
}
