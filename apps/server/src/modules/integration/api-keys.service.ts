/**
 * API keys of the exam-delivery integration: one or more per federative unit,
 * created and revoked by an ADMIN of that unit, shown once at creation and
 * stored only as a SHA-256 hash. A key and its activity event share one
 * transaction; an ADMIN sees and revokes only the keys of their unit.
 */
import { INTEGRATION_ERRORS, type ApiKey } from '@exame/shared';
import type { Database } from '../../db/client';
import type { IntegrationCaller, SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/crypto';
import { changeWithActivity } from '../activity/activity.service';
import {
  findLiveKeyByHash,
  insertKey,
  listKeysOfUnit,
  revokeKeyOfUnit,
  touchKey,
  type ApiKeyRow,
} from './api-keys.repository';

export type ApiKeyDeps = { db: Database };

export const API_KEY_PREFIX = 'exk_';
const LAST_USED_INTERVAL_MS = 60_000;

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    federativeUnit: row.federativeUnit,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export async function listApiKeys(deps: ApiKeyDeps, actor: SessionUser): Promise<ApiKey[]> {
  return (await listKeysOfUnit(deps.db, actor.federativeUnit)).map(toApiKey);
}

export async function createApiKey(
  deps: ApiKeyDeps,
  actor: SessionUser,
  input: { name: string },
): Promise<{ apiKey: ApiKey; key: string }> {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  const row = await changeWithActivity(deps.db, actor, async (tx) => {
    const created = await insertKey(tx, {
      federativeUnit: actor.federativeUnit,
      name: input.name,
      prefix: key.slice(0, 12),
      keyHash: hashToken(key),
      createdBy: actor.id,
    });
    return {
      result: created,
      type: 'api_key_create',
      payload: { keyId: created.id, name: input.name },
    };
  });
  return { apiKey: toApiKey(row), key };
}

export async function revokeApiKey(
  deps: ApiKeyDeps,
  actor: SessionUser,
  id: string,
): Promise<ApiKey> {
  return changeWithActivity(deps.db, actor, async (tx) => {
    const row = await revokeKeyOfUnit(tx, actor.federativeUnit, id, actor.id);
    if (!row) throw AppError.from(INTEGRATION_ERRORS, 'API_KEY_NOT_FOUND');
    return { result: toApiKey(row), type: 'api_key_revoke', payload: { keyId: id } };
  });
}

/** The unit a live key belongs to, or null. */
export async function resolveApiKey(
  deps: ApiKeyDeps,
  key: string,
): Promise<IntegrationCaller | null> {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 120) return null;
  const row = await findLiveKeyByHash(deps.db, hashToken(key));
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_INTERVAL_MS) {
    await touchKey(deps.db, row.id);
  }
  return { keyId: row.id, federativeUnit: row.federativeUnit };
}
