/**
 * Sign-in through a unit's identity provider (OpenID Connect, authorization
 * code with PKCE, state and nonce):
 *
 * 1. `startSsoSignIn` keeps the sign-in (hash of its state, PKCE verifier,
 *    nonce; 10 minutes) and sends the browser to the provider.
 * 2. `finishSsoSignIn` takes the provider's answer once, redeems the code and
 *    verifies the ID token, finds the user *inside the provider's unit*
 *    (already linked; else by the CPF claim; else by a verified e-mail),
 *    links the identity on first use, and leaves a one-time hand-off
 *    (60 seconds) for the browser. No one is created: an unknown person is
 *    refused, as is a disabled user and an e-mail outside the allowed domains.
 * 3. `completeSsoSignIn` exchanges the hand-off for a session, as a password
 *    sign-in opens one. The token never travels in an address.
 */
import { AUTH_ERRORS, SSO_ERRORS, SSO_RETURN_PAGE, stripCpf, type AuthUser } from '@exame/shared';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/crypto';
import { changeWithActivity } from '../activity/activity.service';
import { openSession, recordProof } from '../auth/auth.service';
import type { SessionUser } from '../../lib/actors';
import { securityNoticeMessage } from '../mail/mail.service';
import { findUserInUnit, type UserRow } from '../users/users.service';
import { buildAuthorizationRequest, redeemCode, type ProviderClaims } from './oidc-client';
import {
  findLinkedUserId,
  findProvider,
  insertIdentityLink,
  insertSsoLogin,
  setSsoHandoff,
  takeSsoHandoff,
  takeSsoLogin,
  type ProviderRow,
} from './sign-in-providers.repository';
import { oidcSettings, secretsOf, type SignInProvidersDeps } from './sign-in-providers.service';

const SIGN_IN_TTL_MS = 10 * 60_000;
/** How old the provider's authentication behind a re-authentication may be (its `auth_time`). */
const REAUTH_MAX_AGE_SECONDS = 120;
const HANDOFF_TTL_MS = 60_000;

const ssoError = (code: keyof typeof SSO_ERRORS) => AppError.from(SSO_ERRORS, code);

async function enabledProvider(deps: SignInProvidersDeps, id: string): Promise<ProviderRow> {
  const provider = await findProvider(deps.db, id);
  if (!provider?.enabled) throw ssoError('IDP_NOT_FOUND');
  return provider;
}

/**
 * The provider's authorization address for a new sign-in, and the token of
 * the cookie that ties the sign-in to this browser (login CSRF: an answer
 * brought by another browser is refused).
 */
export async function startSsoSignIn(
  deps: SignInProvidersDeps,
  input: { providerId: string; ip: string; purpose?: 'sign-in' | 'reauth' },
  now: Date = new Date(),
): Promise<{ url: URL; browserToken: string }> {
  const purpose = input.purpose ?? 'sign-in';
  await deps.limiter.hit('ssoStartPerIp', input.ip);
  const provider = await enabledProvider(deps, input.providerId);
  let request;
  try {
    request = await buildAuthorizationRequest(
      provider,
      secretsOf(deps, provider),
      oidcSettings(deps),
      purpose === 'reauth',
    );
  } catch (error) {
    deps.log.warn(
      { event: 'sso_discovery_failed', providerId: provider.id, err: error },
      'provedor de identidade indisponível',
    );
    throw ssoError('sso-provider-unavailable');
  }
  const browserToken = randomToken();
  await insertSsoLogin(deps.db, {
    providerId: provider.id,
    browserHash: hashToken(browserToken),
    stateHash: hashToken(request.state),
    codeVerifier: request.codeVerifier,
    nonce: request.nonce,
    purpose,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SIGN_IN_TTL_MS),
  });
  return { url: request.url, browserToken };
}

/** Whether the browser's cookie is the one its sign-in was started with. */
function sameBrowser(login: { browserHash: string }, browserToken: string | null): boolean {
  return browserToken !== null && hashToken(browserToken) === login.browserHash;
}

/** A network failure or timeout reaching the provider, as opposed to an answer that fails a check. */
function isUnreachable(error: unknown): boolean {
  const name = (error as { name?: string; cause?: { code?: string } } | null)?.name;
  return (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    (error instanceof TypeError && /fetch/.test(error.message))
  );
}

/**
 * The provider's answer (the callback's query), checked and turned into a
 * one-time hand-off for the browser; throws an SSO or identity error.
 */
export async function finishSsoSignIn(
  deps: SignInProvidersDeps,
  query: URLSearchParams,
  browserToken: string | null,
  now: Date = new Date(),
): Promise<string> {
  const state = query.get('state');
  if (!state) throw ssoError('sso-failed');
  const login = await takeSsoLogin(deps.db, hashToken(state), now);
  if (!login) throw ssoError('sso-expired');
  if (!sameBrowser(login, browserToken)) {
    deps.log.warn(
      { event: 'sso_other_browser', providerId: login.providerId },
      'retorno do provedor em outro navegador recusado',
    );
    throw ssoError('sso-failed');
  }
  const provider = await findProvider(deps.db, login.providerId);
  if (!provider?.enabled) throw ssoError('sso-expired');
  const refused = query.get('error');
  if (refused) {
    deps.log.info(
      { event: 'sso_refused', providerId: provider.id, error: refused },
      'o provedor não autorizou a entrada',
    );
    throw ssoError(refused === 'access_denied' ? 'sso-cancelled' : 'sso-failed');
  }
  const settings = {
    ...oidcSettings(deps),
    postLogoutRedirectUri: `${deps.config.publicAppUrl}/login`,
  };
  const callbackUrl = new URL(settings.redirectUri);
  callbackUrl.search = query.toString();
  let answer;
  try {
    answer = await redeemCode(
      provider,
      secretsOf(deps, provider),
      settings,
      callbackUrl,
      {
        state,
        nonce: login.nonce,
        codeVerifier: login.codeVerifier,
        // A proof must come from a new authentication at the provider, not its old session.
        ...(login.purpose === 'reauth' ? { maxAge: REAUTH_MAX_AGE_SECONDS } : {}),
      },
      ['email', 'email_verified', ...(provider.cpfClaim ? [provider.cpfClaim] : [])],
    );
  } catch (error) {
    deps.log.warn(
      { event: 'sso_answer_refused', providerId: provider.id, err: error },
      'resposta do provedor de identidade recusada',
    );
    throw ssoError(isUnreachable(error) ? 'sso-provider-unavailable' : 'sso-failed');
  }
  const user = await linkedUser(deps, provider, answer.claims);
  const handoff = randomToken();
  await setSsoHandoff(deps.db, login.id, {
    handoffHash: hashToken(handoff),
    userId: user.id,
    handoffExpiresAt: new Date(now.getTime() + HANDOFF_TTL_MS),
    logoutUrl: answer.logoutUrl,
  });
  return handoff;
}

function emailOf(claims: ProviderClaims): { email: string | null; verified: boolean } {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return { email, verified };
}

/**
 * The user of the provider's unit this identity is: linked before, or found
 * by the CPF claim, or by a verified e-mail (then linked, and the link
 * recorded). Throws for an e-mail outside the allowed domains, an unknown
 * person and a disabled user.
 */
async function linkedUser(
  deps: SignInProvidersDeps,
  provider: ProviderRow,
  claims: ProviderClaims,
): Promise<UserRow> {
  const unit = provider.federativeUnit;
  const { email, verified } = emailOf(claims);
  if (provider.allowedDomains.length > 0) {
    // Only an e-mail the provider vouches for counts.
    const domain = verified ? email?.split('@')[1] : undefined;
    if (!domain || !provider.allowedDomains.includes(domain)) throw ssoError('unauthorized-domain');
  }
  const linkedId = await findLinkedUserId(deps.db, provider.id, claims.sub);
  let user: UserRow | undefined;
  let via: 'link' | 'cpf' | 'email' = 'link';
  if (linkedId) {
    user = await findUserInUnit(deps.db, unit, { id: linkedId });
  } else {
    const cpfValue = provider.cpfClaim ? claims[provider.cpfClaim] : undefined;
    const cpf = typeof cpfValue === 'string' ? stripCpf(cpfValue) : '';
    if (/^\d{11}$/.test(cpf)) {
      user = await findUserInUnit(deps.db, unit, { cpf });
      via = 'cpf';
    }
    if (!user && email && verified) {
      user = await findUserInUnit(deps.db, unit, { email });
      via = 'email';
    }
  }
  if (!user) {
    deps.log.info(
      { event: 'sso_unknown_user', providerId: provider.id },
      'identidade sem usuário na unidade',
    );
    throw ssoError('sso-unknown-user');
  }
  if (user.registerStatus !== 'enabled') throw AppError.from(AUTH_ERRORS, 'user-disabled');
  if (via !== 'link') {
    const linked = user;
    // The person links their own identity: they are the event's actor, in the provider's unit.
    await changeWithActivity(deps.db, { id: linked.id, federativeUnit: unit }, async (tx) => {
      await insertIdentityLink(tx, {
        providerId: provider.id,
        subject: claims.sub,
        userId: linked.id,
      });
      await deps.mailer.enqueue(
        tx,
        securityNoticeMessage({
          to: linked.email,
          name: linked.name,
          change: `Sua conta foi vinculada ao provedor de identidade "${provider.name}": a partir de agora você também entra por ele`,
          at: new Date(),
          appUrl: deps.config.publicAppUrl,
        }),
      );
      return {
        result: undefined,
        type: 'sso_link',
        payload: { providerId: provider.id, provider: provider.name, by: via },
        target: `user:${linked.id}`,
      };
    });
    void deps.mailer.flush(deps.db);
  }
  return user;
}

/** The browser's session for a hand-off, once. */
export async function completeSsoSignIn(
  deps: SignInProvidersDeps,
  input: { handoff: string; browserToken: string | null; ip: string; userAgent: string | null },
  now: Date = new Date(),
): Promise<AuthUser> {
  const handed = await takeSsoHandoff(deps.db, hashToken(input.handoff), now);
  // Only the browser that started the sign-in opens its session.
  const taken =
    handed?.purpose === 'sign-in' && sameBrowser(handed, input.browserToken) ? handed : undefined;
  const provider = taken && (await findProvider(deps.db, taken.providerId));
  const user =
    taken?.userId && provider
      ? await findUserInUnit(deps.db, provider.federativeUnit, { id: taken.userId })
      : undefined;
  if (!taken || !user) throw ssoError('sso-expired');
  if (user.registerStatus !== 'enabled') throw AppError.from(AUTH_ERRORS, 'user-disabled');
  const signedIn = await openSession(deps, user, input, now);
  return taken.logoutUrl ? { ...signedIn, providerLogoutUrl: taken.logoutUrl } : signedIn;
}

/**
 * A re-authentication through the provider: the hand-off of a `reauth`
 * sign-in, in the browser that started it, proves again who the person of
 * this session is. Another person's hand-off gets `user-mismatch`.
 */
export async function reauthenticateWithSso(
  deps: SignInProvidersDeps,
  actor: SessionUser,
  input: { handoff: string; browserToken: string | null },
  now: Date = new Date(),
): Promise<void> {
  const handed = await takeSsoHandoff(deps.db, hashToken(input.handoff), now);
  const taken =
    handed?.purpose === 'reauth' && sameBrowser(handed, input.browserToken) ? handed : undefined;
  const provider = taken && (await findProvider(deps.db, taken.providerId));
  if (!taken?.userId || !provider || provider.federativeUnit !== actor.federativeUnit) {
    throw ssoError('sso-expired');
  }
  if (taken.userId !== actor.id) {
    deps.log.info({ event: 'reauth_user_mismatch' }, 'reautenticação com outra conta recusada');
    throw AppError.from(AUTH_ERRORS, 'user-mismatch');
  }
  await recordProof(deps.db, actor, now);
}

/** Where the callback sends the browser: the web page that completes the sign-in, or the sign-in page with the reason. */
export function returnAddress(
  deps: Pick<SignInProvidersDeps, 'config'>,
  outcome: { handoff: string } | { error: string },
): string {
  return 'handoff' in outcome
    ? `${deps.config.publicAppUrl}${SSO_RETURN_PAGE}#handoff=${encodeURIComponent(outcome.handoff)}`
    : `${deps.config.publicAppUrl}/login?sso_error=${encodeURIComponent(outcome.error)}`;
}
