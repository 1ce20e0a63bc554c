/** The SQL of `api/BiopassID`: enrolled templates and the record of every verification. */
import { and, eq, gte, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { biometricTemplates, biometricVerifications } from '../../db/schema/index';

export type TemplateRow = typeof biometricTemplates.$inferSelect;
export type NewVerificationRow = typeof biometricVerifications.$inferInsert;

export async function findTemplate(
  db: Executor,
  unit: string,
  cpf: string,
): Promise<TemplateRow | null> {
  const [row] = await db
    .select()
    .from(biometricTemplates)
    .where(and(eq(biometricTemplates.federativeUnit, unit), eq(biometricTemplates.cpf, cpf)))
    .limit(1);
  return row ?? null;
}

/** The capture keys of the enrolment of `cpf`, locked until the transaction ends; null when none. */
export async function lockTemplateImageKeys(
  tx: Executor,
  unit: string,
  cpf: string,
): Promise<string[] | null> {
  const [row] = await tx
    .select({ imageKeys: biometricTemplates.imageKeys })
    .from(biometricTemplates)
    .where(and(eq(biometricTemplates.federativeUnit, unit), eq(biometricTemplates.cpf, cpf)))
    .for('update');
  return row?.imageKeys ?? null;
}

/** Creates the enrolment of a CPF of the unit, or replaces it. */
export async function upsertTemplate(
  tx: Executor,
  row: {
    federativeUnit: string;
    cpf: string;
    templateSealed: string;
    descriptorVersion: string;
    imageKeys: string[];
    enrolledBy: string;
  },
  now: Date,
): Promise<void> {
  await tx
    .insert(biometricTemplates)
    .values(row)
    .onConflictDoUpdate({
      target: [biometricTemplates.federativeUnit, biometricTemplates.cpf],
      set: {
        templateSealed: row.templateSealed,
        descriptorVersion: row.descriptorVersion,
        imageKeys: row.imageKeys,
        enrolledBy: row.enrolledBy,
        updatedAt: now,
      },
    });
}

/**
 * Replaces the descriptors of a template unless it changed since it was read
 * (a re-enrolment meanwhile wins); true when it was replaced.
 */
export async function replaceTemplateIfUnchanged(
  tx: Executor,
  template: Pick<TemplateRow, 'id' | 'templateSealed'>,
  next: { templateSealed: string; descriptorVersion: string },
): Promise<boolean> {
  const updated = await tx
    .update(biometricTemplates)
    .set(next)
    .where(
      and(
        eq(biometricTemplates.id, template.id),
        eq(biometricTemplates.templateSealed, template.templateSealed),
      ),
    )
    .returning({ id: biometricTemplates.id });
  return updated.length > 0;
}

/** The owner (unit and CPF) of the enrolment a stored capture belongs to. */
export async function findTemplateOwnerByImageKey(
  db: Executor,
  key: string,
): Promise<{ federativeUnit: string; cpf: string } | null> {
  const [row] = await db
    .select({ federativeUnit: biometricTemplates.federativeUnit, cpf: biometricTemplates.cpf })
    .from(biometricTemplates)
    .where(sql`${biometricTemplates.imageKeys} @> ${JSON.stringify([key])}::jsonb`)
    .limit(1);
  return row ?? null;
}

/** Records one verification (decided or refused); returns its id. */
export async function insertVerification(db: Executor, row: NewVerificationRow): Promise<string> {
  const [created] = await db
    .insert(biometricVerifications)
    .values(row)
    .returning({ id: biometricVerifications.id });
  if (!created) throw new Error('insert returned no row');
  return created.id;
}

/**
 * Uses a verification to admit its examiner to a check-in or a check-out:
 * it must be a positive decision of the unit, for that CPF, asked by the
 * same user at the same post, recent, and not used before. Returns its capture key, or null
 * when it cannot admit (two uses at once: one wins).
 */
export async function consumeVerifiedCapture(
  tx: Executor,
  ticket: {
    id: string;
    federativeUnit: string;
    cpf: string;
    requestedBy: string;
    schedulingLocal: string;
    notBefore: Date;
  },
): Promise<{
  captureKey: string | null;
  ownFactor: (typeof biometricVerifications.$inferSelect)['ownFactor'];
} | null> {
  const [row] = await tx
    .update(biometricVerifications)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(biometricVerifications.id, ticket.id),
        eq(biometricVerifications.federativeUnit, ticket.federativeUnit),
        eq(biometricVerifications.cpf, ticket.cpf),
        eq(biometricVerifications.requestedBy, ticket.requestedBy),
        eq(biometricVerifications.schedulingLocal, ticket.schedulingLocal),
        eq(biometricVerifications.verified, true),
        // Only a check-in verification keeps the evidence photo; a plain Verify admits nothing.
        isNotNull(biometricVerifications.captureKey),
        isNull(biometricVerifications.consumedAt),
        gte(biometricVerifications.createdAt, ticket.notBefore),
      ),
    )
    .returning({
      captureKey: biometricVerifications.captureKey,
      ownFactor: biometricVerifications.ownFactor,
    });
  return row ?? null;
}

/** The owner (unit and CPF) of a kept verification capture. */
export async function findCaptureOwner(
  db: Executor,
  key: string,
): Promise<{ federativeUnit: string; cpf: string } | null> {
  const [row] = await db
    .select({
      federativeUnit: biometricVerifications.federativeUnit,
      cpf: biometricVerifications.cpf,
    })
    .from(biometricVerifications)
    .where(eq(biometricVerifications.captureKey, key))
    .limit(1);
  return row ?? null;
}
