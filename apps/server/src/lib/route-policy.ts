/**
 * Every route declares who may call it in `config.access`: `'public'`,
 * `'integration'`, or the list of roles. Deny by default: the app refuses to start with a route that
 * declares nothing (see `assertRoutePolicies`), and a test enumerates them.
 */
import type { Role } from '@exame/shared';

/**
 * `'integration'` routes are for the exam-delivery system: they need an
 * `x-api-key` header naming a live key of a federative unit, never a user token.
 * `'operator'` routes serve the operator's commands on the server's own
 * machine (e.g. `npm run mail:outbox`): a loopback connection with the token
 * kept in DATA_DIR/secrets, never a user token.
 * `'metrics'` is the Prometheus scrape (GET /metrics): `Authorization: Bearer
 * <METRICS_TOKEN>` from anywhere, or the operator's request as above; never a
 * user token.
 */
export type AccessPolicy = 'public' | 'integration' | 'operator' | 'metrics' | readonly Role[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessPolicy;
    /**
     * A sensitive action: the session must have proved who the person is in
     * the last REAUTH_WINDOW_MS (sign-in or `POST api/Auth/reauthenticate`),
     * or the answer is 403 `reauth-required`.
     */
    reauth?: true;
  }
}

/** Routes registered by third-party plugins (the OpenAPI viewer) that are public by design. */
export const PUBLIC_PLUGIN_PREFIXES = ['/docs'] as const;

export type RegisteredRoute = {
  method: string;
  url: string;
  access: AccessPolicy | undefined;
  /** A sensitive action: needs a recent proof of identity in the session. */
  reauth: boolean;
};

export function isPluginRoute(url: string): boolean {
  return PUBLIC_PLUGIN_PREFIXES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
}

export function findRoutesWithoutPolicy(routes: readonly RegisteredRoute[]): RegisteredRoute[] {
  return routes.filter((route) => route.access === undefined && !isPluginRoute(route.url));
}
