/**
 * A unit's identity providers, as its ADMIN manages them: listed, added,
 * changed and removed inside the ADMIN's own unit only, each change recorded
 * in the activity log (never the secret). A provider is checked by reading
 * its discovery document before it is saved enabled.
 */
import { assertReachableAddress, ForbiddenIssuerAddress } from './issuer-address';
import {
  SSO_CALLBACK_PATH,
  SSO_ERRORS,
  type identityProviderInputSchema,
  type IdentityProvider,
  type SignInProvider,
} from '@exame/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AppConfig } from '../../config/env';
import type { Database } from '../../db/client';
import type { RateLimiter } from '../../db/rate-limit';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { SecretBox } from '../../lib/secret-box';
import { changeWithActivity } from '../activity/activity.service';
import type { Mailer } from '../mail/mail.service';
import { buildAuthorizationRequest, type OidcSettings } from './oidc-client';
import {
  deleteProvider,
  findProvider,
  insertProvider,
  listProviders,
  updateProvider,
  type ProviderRow,
} from './sign-in-providers.repository';

export type SignInProvidersDeps = {
  db: Database;
  config: Pick<AppConfig, 'publicAppUrl' | 'ssoAllowHttp' | 'session' | 'nodeEnv'>;
  /** Seals the client secrets at rest. */
  secrets: SecretBox;
  limiter: Pick<RateLimiter, 'hit'>;
  log: FastifyBaseLogger;
  /** Tells a person their account was linked to a provider. */
  mailer: Pick<Mailer, 'enqueue' | 'flush'>;
};

type ProviderInput = z.output<typeof identityProviderInputSchema>;

export function oidcSettings(deps: Pick<SignInProvidersDeps, 'config'>): OidcSettings {
  return {
    allowHttp: deps.config.ssoAllowHttp,
    redirectUri: `${deps.config.publicAppUrl}${SSO_CALLBACK_PATH}`,
    guardAddresses: !deps.config.ssoAllowHttp,
  };
}

export function secretsOf(deps: Pick<SignInProvidersDeps, 'secrets'>, row: ProviderRow) {
  return { clientSecret: row.clientSecret ? deps.secrets.open(row.clientSecret) : null };
}

function toProvider(deps: Pick<SignInProvidersDeps, 'config'>, row: ProviderRow): IdentityProvider {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    clientId: row.clientId,
    hasClientSecret: row.clientSecret !== null,
    allowedDomains: row.allowedDomains,
    cpfClaim: row.cpfClaim,
    enabled: row.enabled,
    redirectUri: oidcSettings(deps).redirectUri,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listUnitProviders(
  deps: SignInProvidersDeps,
  actor: SessionUser,
): Promise<IdentityProvider[]> {
  return (await listProviders(deps.db, actor.federativeUnit)).map((row) => toProvider(deps, row));
}

/** The enabled providers of a unit, for its sign-in screen (public). */
export async function listSignInProviders(
  deps: Pick<SignInProvidersDeps, 'db'>,
  unit: string,
): Promise<SignInProvider[]> {
  return (await listProviders(deps.db, unit))
    .filter((row) => row.enabled)
    .map((row) => ({ id: row.id, name: row.name }));
}

/** Reads the provider's discovery document as a sign-in would; refuses what cannot work. */
async function checkReachable(deps: SignInProvidersDeps, row: ProviderRow): Promise<void> {
  if (new URL(row.issuer).protocol !== 'https:' && !deps.config.ssoAllowHttp) {
    throw AppError.from(SSO_ERRORS, 'IDP_ISSUER_INSECURE');
  }
  const settings = oidcSettings(deps);
  if (settings.guardAddresses) {
    try {
      await assertReachableAddress(new URL(row.issuer));
    } catch (error) {
      if (error instanceof ForbiddenIssuerAddress) {
        throw AppError.from(SSO_ERRORS, 'IDP_ISSUER_FORBIDDEN');
      }
      // A name that does not resolve: the discovery below says so.
    }
  }
  if (!row.enabled) return;
  try {
    await buildAuthorizationRequest(row, secretsOf(deps, row), settings);
  } catch (error) {
    deps.log.info(
      { event: 'idp_discovery_failed', issuer: row.issuer, err: error },
      'emissor sem configuração legível',
    );
    throw AppError.from(SSO_ERRORS, 'IDP_DISCOVERY_FAILED');
  }
}

function audited(row: ProviderRow) {
  return {
    providerId: row.id,
    name: row.name,
    issuer: row.issuer,
    clientId: row.clientId,
    allowedDomains: row.allowedDomains,
    cpfClaim: row.cpfClaim,
    enabled: row.enabled,
  };
}

/**
 * What a saved provider would be, checked before anything is written: the
 * discovery read happens outside any transaction (it may take seconds).
 */
async function checkedValues(
  deps: SignInProvidersDeps,
  actor: SessionUser,
  input: ProviderInput,
  storedSecret: string | null,
): Promise<Omit<ProviderRow, 'id' | 'createdAt' | 'updatedAt' | 'createdBy'>> {
  const values = {
    federativeUnit: actor.federativeUnit,
    name: input.name,
    issuer: input.issuer,
    clientId: input.clientId,
    clientSecret:
      input.clientSecret === undefined
        ? storedSecret
        : input.clientSecret === ''
          ? null
          : deps.secrets.seal(input.clientSecret),
    allowedDomains: [...new Set(input.allowedDomains)],
    cpfClaim: input.cpfClaim,
    enabled: input.enabled,
  };
  const now = new Date();
  await checkReachable(deps, {
    ...values,
    id: '00000000-0000-4000-8000-000000000000',
    createdBy: actor.id,
    createdAt: now,
    updatedAt: now,
  });
  return values;
}

export async function addProvider(
  deps: SignInProvidersDeps,
  actor: SessionUser,
  input: ProviderInput,
): Promise<IdentityProvider> {
  const values = await checkedValues(deps, actor, input, null);
  const created = await changeWithActivity(deps.db, actor, async (tx) => {
    const row = await insertProvider(tx, { ...values, createdBy: actor.id });
    return { result: row, type: 'idp_add', payload: audited(row), target: `idp:${row.id}` };
  });
  return toProvider(deps, created);
}

export async function changeProvider(
  deps: SignInProvidersDeps,
  actor: SessionUser,
  id: string,
  input: ProviderInput,
): Promise<IdentityProvider> {
  const stored = await findProvider(deps.db, id, actor.federativeUnit);
  if (!stored) throw AppError.from(SSO_ERRORS, 'IDP_NOT_FOUND');
  const values = await checkedValues(deps, actor, input, stored.clientSecret);
  const changed = await changeWithActivity(deps.db, actor, async (tx) => {
    const before = await findProvider(tx, id, actor.federativeUnit);
    const row = before && (await updateProvider(tx, id, actor.federativeUnit, values));
    if (!before || !row) throw AppError.from(SSO_ERRORS, 'IDP_NOT_FOUND');
    return {
      result: row,
      type: 'idp_update',
      payload: {
        ...audited(row),
        before: audited(before),
        secretChanged: input.clientSecret !== undefined,
      },
      target: `idp:${row.id}`,
    };
  });
  return toProvider(deps, changed);
}

/** Removing a provider removes its links: its people sign in with a password, or are linked again. */
export async function removeProvider(
  deps: SignInProvidersDeps,
  actor: SessionUser,
  id: string,
): Promise<void> {
  await changeWithActivity(deps.db, actor, async (tx) => {
    const removed = await deleteProvider(tx, id, actor.federativeUnit);
    if (!removed) throw AppError.from(SSO_ERRORS, 'IDP_NOT_FOUND');
    return {
      result: undefined,
      type: 'idp_remove',
      payload: audited(removed),
      target: `idp:${id}`,
    };
  });
}

// The door of this module for the others (modules import each other only through services).
export { findProvider, deleteEndedSsoLogins } from './sign-in-providers.repository';
