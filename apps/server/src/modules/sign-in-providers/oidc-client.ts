/**
 * The OpenID Connect relying party, through `openid-client` (discovery, PKCE,
 * state, nonce, ID token validation with the provider's published keys).
 *
 * - The configuration that builds the authorization address is kept for a
 *   minute per provider version; the answer is always checked against a
 *   fresh discovery, whose keys are read anew: a provider that rotated its
 *   signing key is never refused for it.
 * - ID tokens are verified with the provider's keys (`enableNonRepudiationChecks`),
 *   not only trusted for coming over TLS.
 * - Plain-http issuers are refused unless SSO_ALLOW_HTTP (default outside production);
 *   without it, no request goes to a loopback or link-local address (issuer-address.ts).
 */
import * as client from 'openid-client';
import { assertReachableAddress } from './issuer-address';
import type { ProviderRow } from './sign-in-providers.repository';

export type OidcSettings = {
  allowHttp: boolean;
  redirectUri: string;
  /** Outside development, the provider may not be a loopback or link-local address (issuer-address.ts). */
  guardAddresses: boolean;
};
export type ProviderSecrets = { clientSecret: string | null };

/** The claims a sign-in decides on: the ID token's, completed by userinfo when one is missing. */
export type ProviderClaims = Record<string, unknown> & { sub: string };

const CACHE_MS = 60_000;
const SCOPE = 'openid email profile';
const cache = new Map<string, { at: number; config: Promise<client.Configuration> }>();

/** `fetch` that refuses loopback and link-local addresses (issuer-address.ts). */
const guardedFetch: client.CustomFetch = async (url, options) => {
  await assertReachableAddress(new URL(url));
  return fetch(url, options as RequestInit);
};

async function discover(
  provider: ProviderRow,
  secrets: ProviderSecrets,
  settings: OidcSettings,
): Promise<client.Configuration> {
  const issuer = new URL(provider.issuer);
  if (issuer.protocol !== 'https:' && !settings.allowHttp) {
    throw new Error(`emissor sem https recusado: ${provider.issuer}`);
  }
  const execute = [client.enableNonRepudiationChecks];
  if (issuer.protocol === 'http:') execute.push(client.allowInsecureRequests);
  const config = await client.discovery(
    issuer,
    provider.clientId,
    { redirect_uris: [settings.redirectUri], response_types: ['code'] },
    secrets.clientSecret ? client.ClientSecretBasic(secrets.clientSecret) : client.None(),
    {
      execute,
      timeout: 10,
      ...(settings.guardAddresses ? { [client.customFetch]: guardedFetch } : {}),
    },
  );
  // Keys, token and userinfo: the same guard as the discovery.
  if (settings.guardAddresses) config[client.customFetch] = guardedFetch;
  return config;
}

function cachedConfig(
  provider: ProviderRow,
  secrets: ProviderSecrets,
  settings: OidcSettings,
): Promise<client.Configuration> {
  const key = `${provider.id}:${provider.updatedAt.getTime()}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) return hit.config;
  const config = discover(provider, secrets, settings);
  cache.set(key, { at: now, config });
  config.catch(() => cache.delete(key));
  return config;
}

export type AuthorizationRequest = {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
};

export async function buildAuthorizationRequest(
  provider: ProviderRow,
  secrets: ProviderSecrets,
  settings: OidcSettings,
  /** A re-authentication: the provider must ask the person again, whatever session it holds. */
  forceLogin = false,
): Promise<AuthorizationRequest> {
  const config = await cachedConfig(provider, secrets, settings);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: settings.redirectUri,
    scope: SCOPE,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(forceLogin ? { prompt: 'login', max_age: '0' } : {}),
  });
  return { url, state, nonce, codeVerifier };
}

export type CodeAnswer = {
  claims: ProviderClaims;
  /** The provider's end-session address for this sign-in, when it has one. */
  logoutUrl: string | null;
};

/**
 * Redeems the provider's answer (`callbackUrl` as the browser brought it)
 * with the sign-in's PKCE verifier, state and nonce; throws on any mismatch,
 * a bad signature or an error the provider sent back.
 */
export async function redeemCode(
  provider: ProviderRow,
  secrets: ProviderSecrets,
  settings: OidcSettings & { postLogoutRedirectUri: string },
  callbackUrl: URL,
  checks: {
    state: string;
    nonce: string;
    codeVerifier: string;
    /** A re-authentication: the ID token's auth_time must be this recent (seconds). */
    maxAge?: number;
  },
  wantedClaims: string[],
): Promise<CodeAnswer> {
  const config = await discover(provider, secrets, settings);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
    ...(checks.maxAge !== undefined ? { maxAge: checks.maxAge } : {}),
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('o provedor não enviou ID token');
  let claims: ProviderClaims = { ...idClaims };
  if (wantedClaims.some((name) => claims[name] === undefined) && tokens.access_token) {
    const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    claims = { ...info, ...idClaims };
  }
  const endSession = config.serverMetadata().end_session_endpoint;
  // The provider's sign-out, named by the client rather than by the ID token:
  // the token (a CPF at gov.br) is not kept in the browser.
  const logoutUrl = endSession
    ? client
        .buildEndSessionUrl(config, {
          client_id: provider.clientId,
          post_logout_redirect_uri: settings.postLogoutRedirectUri,
        })
        .toString()
    : null;
  return { claims, logoutUrl };
}

/** Forgets cached configurations (tests that rebuild a provider at the same address). */
export function forgetProviderConfigurations(): void {
  cache.clear();
}
