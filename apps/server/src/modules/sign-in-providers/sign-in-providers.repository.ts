/** SQL for a unit's identity providers, the sign-ins under way and the linked identities. */
import { and, asc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { identityProviders, ssoLogins, userIdentities } from '../../db/schema/index';

export type ProviderRow = typeof identityProviders.$inferSelect;
export type NewProviderRow = typeof identityProviders.$inferInsert;
export type SsoLoginRow = typeof ssoLogins.$inferSelect;

export function listProviders(db: Executor, unit: string): Promise<ProviderRow[]> {
  return db
    .select()
    .from(identityProviders)
    .where(eq(identityProviders.federativeUnit, unit))
    .orderBy(asc(identityProviders.name), asc(identityProviders.id));
}

export async function findProvider(
  db: Executor,
  id: string,
  unit?: string,
): Promise<ProviderRow | undefined> {
  const [row] = await db
    .select()
    .from(identityProviders)
    .where(
      unit === undefined
        ? eq(identityProviders.id, id)
        : and(eq(identityProviders.id, id), eq(identityProviders.federativeUnit, unit)),
    )
    .limit(1);
  return row;
}

export async function insertProvider(db: Executor, row: NewProviderRow): Promise<ProviderRow> {
  const [created] = await db.insert(identityProviders).values(row).returning();
  return created!;
}

/** Changes a provider of `unit` (never another unit's); undefined when there is none. */
export async function updateProvider(
  db: Executor,
  id: string,
  unit: string,
  changes: Partial<NewProviderRow>,
): Promise<ProviderRow | undefined> {
  const [updated] = await db
    .update(identityProviders)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(identityProviders.id, id), eq(identityProviders.federativeUnit, unit)))
    .returning();
  return updated;
}

export async function deleteProvider(
  db: Executor,
  id: string,
  unit: string,
): Promise<ProviderRow | undefined> {
  const [removed] = await db
    .delete(identityProviders)
    .where(and(eq(identityProviders.id, id), eq(identityProviders.federativeUnit, unit)))
    .returning();
  return removed;
}

export async function insertSsoLogin(
  db: Executor,
  row: typeof ssoLogins.$inferInsert,
): Promise<void> {
  await db.insert(ssoLogins).values(row);
}

/**
 * Takes the sign-in a provider's answer names, once: the row is marked
 * answered in the same statement, so a replayed answer finds nothing.
 */
export async function takeSsoLogin(
  db: Executor,
  stateHash: string,
  now: Date,
): Promise<SsoLoginRow | undefined> {
  const [row] = await db
    .update(ssoLogins)
    .set({ answeredAt: now })
    .where(
      and(
        eq(ssoLogins.stateHash, stateHash),
        isNull(ssoLogins.answeredAt),
        gt(ssoLogins.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function setSsoHandoff(
  db: Executor,
  id: string,
  handoff: {
    handoffHash: string;
    userId: string;
    handoffExpiresAt: Date;
    logoutUrl: string | null;
  },
): Promise<void> {
  await db.update(ssoLogins).set(handoff).where(eq(ssoLogins.id, id));
}

/** Takes a hand-off once (the row goes), if it is still valid. */
export async function takeSsoHandoff(
  db: Executor,
  handoffHash: string,
  now: Date,
): Promise<SsoLoginRow | undefined> {
  const [row] = await db
    .delete(ssoLogins)
    .where(and(eq(ssoLogins.handoffHash, handoffHash), gt(ssoLogins.handoffExpiresAt, now)))
    .returning();
  return row;
}

/** Sign-ins that can no longer be answered nor handed off (retention). */
export function deleteEndedSsoLogins(db: Executor, now: Date): Promise<number> {
  return deleteRows(
    db,
    ssoLogins,
    and(
      lt(ssoLogins.expiresAt, now),
      or(isNull(ssoLogins.handoffExpiresAt), lt(ssoLogins.handoffExpiresAt, now)),
    ),
  );
}

export async function findLinkedUserId(
  db: Executor,
  providerId: string,
  subject: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.providerId, providerId), eq(userIdentities.subject, subject)))
    .limit(1);
  return row?.userId;
}

export async function insertIdentityLink(
  db: Executor,
  link: { providerId: string; subject: string; userId: string },
): Promise<void> {
  await db.insert(userIdentities).values(link).onConflictDoNothing();
}
