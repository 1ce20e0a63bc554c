/**
 * SQL of the LGPD retention of a unit's personal data (see
 * retention.service.ts). The operational data is purged through the
 * repositories of the modules that own it.
 */
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import {
  activityLog,
  biometricTemplates,
  biometricVerifications,
  checkInViewers,
  examPhotos,
  exams,
} from '../../db/schema/index';

/** The units that hold any data the unit-level purge looks at. */
export async function findUnitsWithPersonalData(
  db: Executor,
  eventTypes: readonly string[],
): Promise<string[]> {
  const rows = await selectRows<{ unit: string }>(
    db,
    sql`
    select federative_unit as unit from biometric_verifications
    union select federative_unit from biometric_templates
    union select e.federative_unit from exam_photos p join exams e on e.id = p.exam_id
    union select federative_unit from activity_log
      where type in (${sql.join(
        eventTypes.map((type) => sql`${type}`),
        sql`, `,
      )}) and payload ? 'cpf' and federative_unit is not null
  `,
  );
  return rows.map((row) => row.unit);
}

/**
 * Verifications of the unit made before `cutoff`; returns the keys of the
 * captures they kept (an examiner's check-in or check-out), whose mentions in
 * the check-in records are cleared with them: the record stays, the face goes.
 */
export async function deleteVerificationsBefore(
  db: Executor,
  unit: string,
  cutoff: Date,
): Promise<{ count: number; captureKeys: string[] }> {
  const removed = await db
    .delete(biometricVerifications)
    .where(
      and(
        eq(biometricVerifications.federativeUnit, unit),
        lt(biometricVerifications.createdAt, cutoff),
      ),
    )
    .returning({ captureKey: biometricVerifications.captureKey });
  const captureKeys = removed.flatMap((row) => (row.captureKey ? [row.captureKey] : []));
  if (captureKeys.length > 0) {
    await db
      .update(checkInViewers)
      .set({ faceKey: null })
      .where(inArray(checkInViewers.faceKey, captureKeys));
    await db
      .update(checkInViewers)
      .set({ checkOutFaceKey: null })
      .where(inArray(checkInViewers.checkOutFaceKey, captureKeys));
  }
  return { count: removed.length, captureKeys };
}

/** Enrolments not renewed since `cutoff`; returns the capture keys of each one removed. */
export async function deleteTemplatesNotRenewedSince(
  db: Executor,
  unit: string,
  cutoff: Date,
): Promise<string[][]> {
  const removed = await db
    .delete(biometricTemplates)
    .where(
      and(eq(biometricTemplates.federativeUnit, unit), lt(biometricTemplates.updatedAt, cutoff)),
    )
    .returning({ imageKeys: biometricTemplates.imageKeys });
  return removed.map((row) => row.imageKeys);
}

/** Exam photos of the unit captured before `cutoff`; returns their storage keys. */
export async function deleteExamPhotosBefore(
  db: Executor,
  unit: string,
  cutoff: Date,
): Promise<string[]> {
  const removed = await db
    .delete(examPhotos)
    .where(
      and(
        lt(examPhotos.capturedAt, cutoff),
        sql`${examPhotos.examId} in (select ${exams.id} from ${exams} where ${exams.federativeUnit} = ${unit})`,
      ),
    )
    .returning({ storageKey: examPhotos.storageKey });
  return removed.map((row) => row.storageKey);
}

/** Events of these types recorded before `cutoff` that still name a person by CPF. */
export async function findEventsWithCpf(
  db: Executor,
  unit: string,
  types: readonly string[],
  cutoff: Date,
): Promise<Array<{ id: string; cpf: string }>> {
  return db
    .select({ id: activityLog.id, cpf: sql<string>`${activityLog.payload} ->> 'cpf'` })
    .from(activityLog)
    .where(
      and(
        eq(activityLog.federativeUnit, unit),
        inArray(activityLog.type, [...types]),
        lt(activityLog.createdAt, cutoff),
        sql`${activityLog.payload} ? 'cpf'`,
      ),
    );
}

/** Replaces the event's `cpf` with `cpfPseudonym`. */
export async function replaceEventCpf(db: Executor, id: string, pseudonym: string): Promise<void> {
  await db
    .update(activityLog)
    .set({
      payload: sql`(${activityLog.payload} - 'cpf') || jsonb_build_object('cpfPseudonym', ${pseudonym}::text)`,
    })
    .where(eq(activityLog.id, id));
}

/** Every stored-file key a row refers to (exam photos, enrolment captures, check-in captures). */
export async function findReferencedFileKeys(db: Executor): Promise<Set<string>> {
  const rows = await selectRows<{ key: string }>(
    db,
    sql`select storage_key as key from exam_photos
        union select jsonb_array_elements_text(image_keys) from biometric_templates
        union select capture_key from biometric_verifications where capture_key is not null
        union select face_key from check_in_viewers where face_key is not null
        union select check_out_face_key from check_in_viewers where check_out_face_key is not null`,
  );
  return new Set(rows.map((row) => row.key));
}
