/**
 * LGPD retention (Lei 13.709/2018, Art. 15 and 16): face data and exam
 * photos are kept only for the period of each unit, then purged: verification
 * records, face enrolments not renewed in the period (template and captures),
 * and exam photos (file and row). Runs at start and once a day; every purge
 * is recorded in the activity log.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import {
  biometricTemplates,
  biometricVerifications,
  examPhotos,
  exams,
} from '../../db/schema/index';
import type { FileStorage } from '../../lib/file-storage';
import { insertActivity } from '../activity/activity.repository';

export type RetentionSettings = { defaultDays: number; byUnit: Record<string, number> };
export type PurgeCounts = { verifications: number; enrolments: number; photos: number };

const DAY_MS = 86_400_000;

async function unitsWithData(db: Database): Promise<string[]> {
  const rows = (await db.execute(sql`
    select federative_unit as unit from biometric_verifications
    union select federative_unit from biometric_templates
    union select e.federative_unit from exam_photos p join exams e on e.id = p.exam_id
  `)) as unknown as { rows: Array<{ unit: string }> };
  return rows.rows.map((row) => row.unit);
}

export async function purgeExpiredPersonalData(
  db: Database,
  files: Pick<FileStorage, 'remove'>,
  settings: RetentionSettings,
  now: Date = new Date(),
): Promise<Record<string, PurgeCounts>> {
  const result: Record<string, PurgeCounts> = {};
  for (const unit of await unitsWithData(db)) {
    const days = settings.byUnit[unit] ?? settings.defaultDays;
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    const removedFiles: string[] = [];
    const counts = await db.transaction(async (tx) => {
      const verifications = await tx
        .delete(biometricVerifications)
        .where(
          and(
            eq(biometricVerifications.federativeUnit, unit),
            lt(biometricVerifications.createdAt, cutoff),
          ),
        )
        .returning({ id: biometricVerifications.id });
      const enrolments = await tx
        .delete(biometricTemplates)
        .where(
          and(
            eq(biometricTemplates.federativeUnit, unit),
            lt(biometricTemplates.updatedAt, cutoff),
          ),
        )
        .returning({ imageKeys: biometricTemplates.imageKeys });
      const photos = await tx
        .delete(examPhotos)
        .where(
          and(
            lt(examPhotos.capturedAt, cutoff),
            sql`${examPhotos.examId} in (select ${exams.id} from ${exams} where ${exams.federativeUnit} = ${unit})`,
          ),
        )
        .returning({ storageKey: examPhotos.storageKey });
      removedFiles.push(
        ...enrolments.flatMap((row) => row.imageKeys),
        ...photos.map((row) => row.storageKey),
      );
      const purged = {
        verifications: verifications.length,
        enrolments: enrolments.length,
        photos: photos.length,
      };
      if (purged.verifications + purged.enrolments + purged.photos > 0) {
        await insertActivity(tx, {
          type: 'retention_purge',
          actorId: null,
          federativeUnit: unit,
          payload: { ...purged, retentionDays: days },
        });
      }
      return purged;
    });
    // Files go after the commit: a rolled-back purge must not lose a file still referenced.
    for (const key of removedFiles) await files.remove(key);
    result[unit] = counts;
  }
  return result;
}

/** Runs the purge now and then every day; returns a stop function. */
export function scheduleRetention(
  db: Database,
  files: Pick<FileStorage, 'remove'>,
  settings: RetentionSettings,
  log: FastifyBaseLogger,
): () => void {
  const run = () =>
    purgeExpiredPersonalData(db, files, settings)
      .then((counts) => log.info({ counts }, 'retenção LGPD aplicada'))
      .catch((error: unknown) => log.error({ err: error }, 'falha ao aplicar a retenção LGPD'));
  void run();
  const timer = setInterval(() => void run(), DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
