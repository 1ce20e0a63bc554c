/** Metadata each route carries in its `handle`. */
import { matchRoutes, type RouteObject, type UIMatch } from 'react-router';

export type RouteHandle = {
  /** The page title (spec 2); no title means an empty page title. */
  title?: string;
  /**
   * The page's name in the browser tab where the specification gives no
   * title (accessibility: every page has a document title).
   */
  documentTitle?: string;
  /** Admin-guarded route: the Libras widget is hidden and only ADMIN may enter. */
  adminGuarded?: boolean;
};

export function handleOf(match: UIMatch): RouteHandle {
  return (match.handle ?? {}) as RouteHandle;
}

/** The title of the route being shown (the deepest match), or '' when it has none. */
export function titleFromMatches(matches: readonly UIMatch[]): string {
  const leaf = matches[matches.length - 1];
  return (leaf ? handleOf(leaf).title : undefined) ?? '';
}

/**
 * The document title: the route's title (or its tab name) and the product
 * name, `Exames · Exame Teórico`; the product name alone for a page without one.
 */
export function documentTitleFromMatches(matches: readonly UIMatch[], productName: string): string {
  const leaf = matches[matches.length - 1];
  const handle = leaf ? handleOf(leaf) : {};
  const name = handle.title || handle.documentTitle;
  return name ? `${name} · ${productName}` : productName;
}

export function isAdminGuarded(matches: readonly UIMatch[]): boolean {
  return matches.some((match) => handleOf(match).adminGuarded === true);
}

/**
 * The screen an address of the app opens, named as its tab is (the route's
 * title or tab name), with the parameters of the route; null for an address
 * whose route has no name (a redirect).
 */
export function screenOfPath(
  routes: RouteObject[],
  path: string,
): { name: string; params: Readonly<Record<string, string | undefined>> } | null {
  const matches = matchRoutes(routes, path);
  const leaf = matches?.[matches.length - 1];
  if (!leaf) return null;
  const handle = (leaf.route.handle ?? {}) as RouteHandle;
  const name = handle.title || handle.documentTitle;
  return name ? { name, params: leaf.params } : null;
}
