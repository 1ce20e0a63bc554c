/** The SQL of certificates: issue, find by code or exam, revoke. */
import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { certificates } from '../../db/schema/index';

export type CertificateRow = typeof certificates.$inferSelect;

/** The first certificate that `where` finds, in `orderBy` order. */
async function findFirstCertificate(
  db: Executor,
  where: SQL | undefined,
  ...orderBy: SQL[]
): Promise<CertificateRow | undefined> {
  const [row] = await db
    .select()
    .from(certificates)
    .where(where)
    .orderBy(...orderBy)
    .limit(1);
  return row;
}

/** The exam's valid certificate, if any. */
export function findValidCertificate(
  db: Executor,
  examId: string,
): Promise<CertificateRow | undefined> {
  return findFirstCertificate(
    db,
    and(eq(certificates.examId, examId), isNull(certificates.revokedAt)),
  );
}

/** The exam's latest certificate (valid or revoked). */
export function findLatestCertificate(
  db: Executor,
  examId: string,
): Promise<CertificateRow | undefined> {
  return findFirstCertificate(db, eq(certificates.examId, examId), desc(certificates.issuedAt));
}

export function findCertificateByCode(
  db: Executor,
  code: string,
): Promise<CertificateRow | undefined> {
  return findFirstCertificate(db, eq(certificates.code, code));
}

export function findUnitCertificate(
  db: Executor,
  unit: string,
  id: string,
): Promise<CertificateRow | undefined> {
  return findFirstCertificate(
    db,
    and(eq(certificates.federativeUnit, unit), eq(certificates.id, id)),
  );
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
