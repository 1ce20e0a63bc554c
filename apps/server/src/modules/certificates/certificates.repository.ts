/** The SQL of certificates: issue, find by code or exam, revoke. */
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { certificates } from '../../db/schema/index';

export type CertificateRow = typeof certificates.$inferSelect;

/** The exam's valid certificate, if any. */
export async function findValidCertificate(
  db: Executor,
  examId: string,
): Promise<CertificateRow | undefined> {
  const [row] = await db
    .select()
    .from(certificates)
    .where(and(eq(certificates.examId, examId), isNull(certificates.revokedAt)))
    .limit(1);
  return row;
}

/** The exam's latest certificate (valid or revoked). */
export async function findLatestCertificate(
  db: Executor,
  examId: string,
): Promise<CertificateRow | undefined> {
  const [row] = await db
    .select()
    .from(certificates)
    .where(eq(certificates.examId, examId))
    .orderBy(desc(certificates.issuedAt))
    .limit(1);
  return row;
}

export async function findCertificateByCode(
  db: Executor,
  code: string,
): Promise<CertificateRow | undefined> {
  const [row] = await db.select().from(certificates).where(eq(certificates.code, code)).limit(1);
  return row;
}

export async function findUnitCertificate(
  db: Executor,
  unit: string,
  id: string,
): Promise<CertificateRow | undefined> {
  const [row] = await db
    .select()
    .from(certificates)
    .where(and(eq(certificates.federativeUnit, unit), eq(certificates.id, id)))
    .limit(1);
  return row;
}

/** Inserts a certificate; undefined when the exam already has a valid one (a concurrent issue). */
export async function insertCertificate(
  tx: Executor,
  row: typeof certificates.$inferInsert,
): Promise<CertificateRow | undefined> {
  const [created] = await tx.insert(certificates).values(row).onConflictDoNothing().returning();
  return created;
}

/** Revokes the exam's valid certificate; returns it when there was one. */
export async function revokeCertificates(
  tx: Executor,
  examId: string,
  revoke: { at: Date; reason: 'disqualified' | 'reopened' },
): Promise<CertificateRow[]> {
  return tx
    .update(certificates)
    .set({ revokedAt: revoke.at, revokedReason: revoke.reason })
    .where(and(eq(certificates.examId, examId), isNull(certificates.revokedAt)))
    .returning();
}
