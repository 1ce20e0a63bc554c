/**
 * API keys of the exam-delivery integration: one or more per federative unit,
 * created and revoked by an ADMIN of that unit, shown once at creation and
 * stored only as a SHA-256 hash.
 */
import type { ApiKey } from '@exame/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { integrationApiKeys } from '../../db/schema/index';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/crypto';
import type { SessionUser } from '../../plugins/auth';
import { insertActivity } from '../activity/activity.repository';

export const API_KEY_PREFIX = 'exk_';

type KeyRow = typeof integrationApiKeys.$inferSelect;

function toApiKey(row: KeyRow): ApiKey {
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

export async function listApiKeys(db: Database, actor: SessionUser): Promise<ApiKey[]> {
  const rows = await db
    .select()
    .from(integrationApiKeys)
    .where(eq(integrationApiKeys.federativeUnit, actor.federativeUnit))
    .orderBy(desc(integrationApiKeys.createdAt));
  return rows.map(toApiKey);
}

export async function createApiKey(
  db: Database,
  actor: SessionUser,
  name: string,
): Promise<{ apiKey: ApiKey; key: string }> {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(integrationApiKeys)
      .values({
        federativeUnit: actor.federativeUnit,
        name,
        prefix: key.slice(0, 12),
        keyHash: hashToken(key),
        createdBy: actor.id,
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
    await insertActivity(tx, {
      type: 'api_key_create',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: { keyId: created.id, name },
    });
    return created;
  });
  return { apiKey: toApiKey(row), key };
}

export async function revokeApiKey(db: Database, actor: SessionUser, id: string): Promise<ApiKey> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(integrationApiKeys)
      .set({ revokedAt: new Date(), revokedBy: actor.id })
      .where(
        and(
          eq(integrationApiKeys.id, id),
          eq(integrationApiKeys.federativeUnit, actor.federativeUnit),
          isNull(integrationApiKeys.revokedAt),
        ),
      )
      .returning();
    if (!row) throw AppError.notFound('Chave não encontrada ou já revogada.', 'API_KEY_NOT_FOUND');
    await insertActivity(tx, {
      type: 'api_key_revoke',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: { keyId: id },
    });
    return toApiKey(row);
  });
}

export type IntegrationCaller = { keyId: string; federativeUnit: string };

const LAST_USED_INTERVAL_MS = 60_000;

/** The unit a live key belongs to, or null. */
export async function resolveApiKey(db: Database, key: string): Promise<IntegrationCaller | null> {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 120) return null;
  const [row] = await db
    .select()
    .from(integrationApiKeys)
    .where(
      and(eq(integrationApiKeys.keyHash, hashToken(key)), isNull(integrationApiKeys.revokedAt)),
    )
    .limit(1);
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_INTERVAL_MS) {
    await db
      .update(integrationApiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(integrationApiKeys.id, row.id));
  }
  return { keyId: row.id, federativeUnit: row.federativeUnit };
}
