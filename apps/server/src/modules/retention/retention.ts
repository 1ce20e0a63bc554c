/**
 * LGPD retention (Lei 13.709/2018, Art. 15 and 16): personal data is kept
 * only for the period its purpose needs, then purged.
 *
 * Per unit, after the unit's period (RETENTION_DAYS): verification records,
 * face enrolments not renewed (template and captures), exam photos (file and
 * row), and the CPFs in the activity events about biometrics, which are
 * replaced by a keyed pseudonym (the event stays as evidence that something
 * happened, no longer saying to whom).
 *
 * Operational data, each by its own period (OPERATIONAL_RETENTION): ended
 * sessions, sent or stale e-mails (and the links of unsent ones once they
 * expire), sign-in throttle keys, request counters, trusted devices, queued
 * link requests, and stored files that no row references (written before a
 * transaction that failed).
 *
 * Runs at start and once a day; every purge of a unit's data is recorded in
 * the activity log.
 */
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { selectRows, type Database } from '../../db/client';
import {
  activityLog,
  biometricTemplates,
  biometricVerifications,
  examPhotos,
  exams,
  loginThrottle,
  mailOutbox,
  passwordLinkRequests,
  rateLimits,
  sessions,
  trustedDevices,
} from '../../db/schema/index';
import type { FileStorage } from '../../lib/file-storage';
import type { Pseudonymizer } from '../../lib/pseudonym';
import { insertActivity } from '../activity/activity.repository';
import { FAILURE_RESET_MS } from '../auth/login-throttle';

export type RetentionSettings = { defaultDays: number; byUnit: Record<string, number> };
export type PurgeCounts = {
  verifications: number;
  enrolments: number;
  photos: number;
  events: number;
};

const DAY_MS = 86_400_000;

/** How long operational data outlives its use. */
export const OPERATIONAL_RETENTION = {
  /** Ended sessions (expired or revoked) stay a month, to answer "who was signed in". */
  endedSessionsMs: 30 * DAY_MS,
  /** E-mails, sent or not, stay a month as a record of what was sent. */
  mailMs: 30 * DAY_MS,
  /** Request counters: the longest window is 15 minutes. */
  rateLimitsMs: DAY_MS,
  /** Queued link requests are worked off in seconds; a day-old one will never be. */
  linkRequestsMs: DAY_MS,
  /** A stored file no row references, older than this, was left by a failed write. */
  orphanFilesMs: DAY_MS,
} as const;

/** Activity events that name a person by CPF in their payload. */
const BIOMETRIC_EVENTS = ['biometric_enrol', 'biometric_template_upgrade', 'face_image_view'];

async function unitsWithData(db: Database): Promise<string[]> {
  const rows = await selectRows<{ unit: string }>(
    db,
    sql`
    select federative_unit as unit from biometric_verifications
    union select federative_unit from biometric_templates
    union select e.federative_unit from exam_photos p join exams e on e.id = p.exam_id
    union select federative_unit from activity_log
      where type in (${sql.join(
        BIOMETRIC_EVENTS.map((type) => sql`${type}`),
        sql`, `,
      )}) and payload ? 'cpf' and federative_unit is not null
  `,
  );
  return rows.map((row) => row.unit);
}

export type RetentionDeps = {
  db: Database;
  files: Pick<FileStorage, 'remove' | 'list'>;
  pseudonym: Pseudonymizer;
};

export async function purgeExpiredPersonalData(
  deps: RetentionDeps,
  settings: RetentionSettings,
  now: Date = new Date(),
): Promise<Record<string, PurgeCounts>> {
  const { db, files } = deps;
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
      const events = await pseudonymiseBiometricEvents(tx, deps.pseudonym, unit, cutoff);
      const purged = {
        verifications: verifications.length,
        enrolments: enrolments.length,
        photos: photos.length,
        events,
      };
      if (purged.verifications + purged.enrolments + purged.photos + purged.events > 0) {
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

/** The CPF in old biometric events becomes a keyed pseudonym (same person, same pseudonym). */
async function pseudonymiseBiometricEvents(
  tx: Parameters<Parameters<Database['transaction']>[0]>[0],
  pseudonym: Pseudonymizer,
  unit: string,
  cutoff: Date,
): Promise<number> {
  const rows = await tx
    .select({ id: activityLog.id, cpf: sql<string>`${activityLog.payload} ->> 'cpf'` })
    .from(activityLog)
    .where(
      and(
        eq(activityLog.federativeUnit, unit),
        inArray(activityLog.type, BIOMETRIC_EVENTS),
        lt(activityLog.createdAt, cutoff),
        sql`${activityLog.payload} ? 'cpf'`,
      ),
    );
  for (const row of rows) {
    await tx
      .update(activityLog)
      .set({
        payload: sql`(${activityLog.payload} - 'cpf') || jsonb_build_object('cpfPseudonym', ${pseudonym(row.cpf)}::text)`,
      })
      .where(eq(activityLog.id, row.id));
  }
  return rows.length;
}

export type OperationalCounts = {
  sessions: number;
  mailDeleted: number;
  linksCleared: number;
  throttleKeys: number;
  rateLimits: number;
  devices: number;
  linkRequests: number;
  orphanFiles: number;
};

/** Operational data, each by its own period (see OPERATIONAL_RETENTION). */
export async function purgeOperationalData(
  deps: RetentionDeps,
  now: Date = new Date(),
): Promise<OperationalCounts> {
  const { db } = deps;
  const before = (ms: number) => new Date(now.getTime() - ms);
  const count = (rows: unknown[]) => rows.length;
  const ended = before(OPERATIONAL_RETENTION.endedSessionsMs);
  const sessionRows = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, ended), lt(sessions.revokedAt, ended)))
    .returning({ id: sessions.tokenHash });
  const mailRows = await db
    .delete(mailOutbox)
    .where(lt(mailOutbox.createdAt, before(OPERATIONAL_RETENTION.mailMs)))
    .returning({ id: mailOutbox.id });
  const clearedLinks = await db
    .update(mailOutbox)
    .set({ link: null })
    .where(and(isNotNull(mailOutbox.link), lt(mailOutbox.linkExpiresAt, now)))
    .returning({ id: mailOutbox.id });
  const throttleRows = await db
    .delete(loginThrottle)
    .where(
      and(
        lt(loginThrottle.lastFailureAt, before(FAILURE_RESET_MS)),
        or(isNull(loginThrottle.lockedUntil), lt(loginThrottle.lockedUntil, now)),
      ),
    )
    .returning({ key: loginThrottle.key });
  const limitRows = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, before(OPERATIONAL_RETENTION.rateLimitsMs)))
    .returning({ key: rateLimits.key });
  const deviceRows = await db
    .delete(trustedDevices)
    .where(lt(trustedDevices.expiresAt, now))
    .returning({ id: trustedDevices.tokenHash });
  const requestRows = await db
    .delete(passwordLinkRequests)
    .where(lt(passwordLinkRequests.requestedAt, before(OPERATIONAL_RETENTION.linkRequestsMs)))
    .returning({ id: passwordLinkRequests.id });
  return {
    sessions: count(sessionRows),
    mailDeleted: count(mailRows),
    linksCleared: count(clearedLinks),
    throttleKeys: count(throttleRows),
    rateLimits: count(limitRows),
    devices: count(deviceRows),
    linkRequests: count(requestRows),
    orphanFiles: await removeOrphanFiles(deps, before(OPERATIONAL_RETENTION.orphanFilesMs)),
  };
}

/** Files no row references, older than `olderThan` (a write in progress is never that old). */
async function removeOrphanFiles(deps: RetentionDeps, olderThan: Date): Promise<number> {
  const candidates = (await deps.files.list()).filter((file) => file.modifiedAt < olderThan);
  if (candidates.length === 0) return 0;
  const referenced = new Set(
    (
      await selectRows<{ key: string }>(
        deps.db,
        sql`select storage_key as key from exam_photos
            union select jsonb_array_elements_text(image_keys) from biometric_templates`,
      )
    ).map((row) => row.key),
  );
  let removed = 0;
  for (const file of candidates) {
    if (referenced.has(file.key)) continue;
    await deps.files.remove(file.key);
    removed += 1;
  }
  return removed;
}

/** Runs the purges now and then every day; returns a stop function. */
export function scheduleRetention(
  deps: RetentionDeps,
  settings: RetentionSettings,
  log: FastifyBaseLogger,
): () => void {
  const run = () =>
    purgeExpiredPersonalData(deps, settings)
      .then(async (counts) => {
        const operational = await purgeOperationalData(deps);
        log.info({ counts, operational }, 'retenção LGPD aplicada');
      })
      .catch((error: unknown) => log.error({ err: error }, 'falha ao aplicar a retenção LGPD'));
  void run();
  const timer = setInterval(() => void run(), DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
