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
 * link requests, realtime events (a reconnecting screen needs minutes of
 * them, and they name candidates), and stored files that no row references
 * (written before a transaction that failed).
 *
 * Runs at start and once a day, once across instances (the `retention-purge`
 * job, jobs/scheduled-jobs.ts); every purge of a unit's data is recorded in
 * the activity log.
 */
import type { Database, Executor } from '../../db/client';
import type { FileStorage } from '../../lib/file-storage';
import type { Pseudonymizer } from '../../lib/pseudonym';
import { deleteRateLimitsBefore } from '../../db/rate-limit.repository';
import { insertActivity, type ActivityType } from '../activity/activity.service';
import { deleteStaleThrottleKeys } from '../auth/auth.service';
import { FAILURE_RESET_MS } from '../auth/auth.service';
import { deleteLinkRequestsBefore } from '../auth/auth.service';
import { deleteExpiredTickets } from '../auth/auth.service';
import { deleteEndedSessions } from '../auth/sessions.service';
import { deleteExpiredDevices } from '../auth/auth.service';
import { deleteEndedSsoLogins } from '../sign-in-providers/sign-in-providers.service';
import { clearExpiredMailLinks, deleteMailCreatedBefore } from '../mail/mail.service';
import { deleteExpiredChallenges } from '../face-enrolment/face-challenges.service';
import { deleteProctoringTokensExpiredBefore } from '../check-ins/check-ins.service';
import { deleteRealtimeEventsBefore } from '../realtime/realtime.service';
import {
  deleteExamPhotosBefore,
  deleteTemplatesNotRenewedSince,
  deleteVerificationsBefore,
  findEventsWithCpf,
  findReferencedFileKeys,
  findUnitsWithPersonalData,
  replaceEventCpf,
} from './retention.repository';

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
  /** Realtime events serve reconnecting screens; a day covers any reconnection, a week is generous. */
  realtimeEventsMs: 7 * DAY_MS,
  /** Face challenges live a minute; a day-old one only says that a capture was started. */
  faceChallengesMs: DAY_MS,
  /** Examiner 2's confirmations live minutes; once used, the check-in record says what they proved. */
  proctoringTokensMs: DAY_MS,
} as const;

/** Activity events that name a person by CPF in their payload. */
const BIOMETRIC_EVENTS: readonly ActivityType[] = [
  'biometric_enrol',
  'biometric_template_upgrade',
  'face_image_view',
];

export type RetentionDeps = {
  db: Database;
  files: Pick<FileStorage, 'remove' | 'list' | 'removeStrayTemporaries'>;
  pseudonym: Pseudonymizer;
};

export async function purgeExpiredPersonalData(
  deps: RetentionDeps,
  settings: RetentionSettings,
  now: Date = new Date(),
): Promise<Record<string, PurgeCounts>> {
  const { db, files } = deps;
  const result: Record<string, PurgeCounts> = {};
  for (const unit of await findUnitsWithPersonalData(db, BIOMETRIC_EVENTS)) {
    const days = settings.byUnit[unit] ?? settings.defaultDays;
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    const removedFiles: string[] = [];
    const counts = await db.transaction(async (tx) => {
      const verifications = await deleteVerificationsBefore(tx, unit, cutoff);
      const enrolments = await deleteTemplatesNotRenewedSince(tx, unit, cutoff);
      const photos = await deleteExamPhotosBefore(tx, unit, cutoff);
      removedFiles.push(...verifications.captureKeys, ...enrolments.flat(), ...photos);
      const events = await pseudonymiseBiometricEvents(tx, deps.pseudonym, unit, cutoff);
      const purged = {
        verifications: verifications.count,
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
  tx: Executor,
  pseudonym: Pseudonymizer,
  unit: string,
  cutoff: Date,
): Promise<number> {
  const rows = await findEventsWithCpf(tx, unit, BIOMETRIC_EVENTS, cutoff);
  for (const row of rows) await replaceEventCpf(tx, row.id, pseudonym(row.cpf));
  return rows.length;
}

export type OperationalCounts = {
  sessions: number;
  mailDeleted: number;
  linksCleared: number;
  throttleKeys: number;
  rateLimits: number;
  devices: number;
  /** Sign-ins through an identity provider no longer answerable nor handed off. */
  ssoLogins: number;
  /** Steps after a right password, and set-ups of a second factor, past their end. */
  mfaTickets: number;
  linkRequests: number;
  realtimeEvents: number;
  faceChallenges: number;
  proctoringTokens: number;
  orphanFiles: number;
  /** Temporary files of writes killed half-way (the disk store). */
  strayTemporaryFiles: number;
};

/** Operational data, each by its own period (see OPERATIONAL_RETENTION). */
export async function purgeOperationalData(
  deps: RetentionDeps,
  now: Date = new Date(),
): Promise<OperationalCounts> {
  const { db } = deps;
  const before = (ms: number) => new Date(now.getTime() - ms);
  return {
    sessions: await deleteEndedSessions(db, before(OPERATIONAL_RETENTION.endedSessionsMs)),
    mailDeleted: await deleteMailCreatedBefore(db, before(OPERATIONAL_RETENTION.mailMs)),
    linksCleared: await clearExpiredMailLinks(db, now),
    throttleKeys: await deleteStaleThrottleKeys(db, before(FAILURE_RESET_MS), now),
    rateLimits: await deleteRateLimitsBefore(db, before(OPERATIONAL_RETENTION.rateLimitsMs)),
    devices: await deleteExpiredDevices(db, now),
    ssoLogins: await deleteEndedSsoLogins(db, now),
    mfaTickets: await deleteExpiredTickets(db, now),
    linkRequests: await deleteLinkRequestsBefore(db, before(OPERATIONAL_RETENTION.linkRequestsMs)),
    realtimeEvents: await deleteRealtimeEventsBefore(
      db,
      before(OPERATIONAL_RETENTION.realtimeEventsMs),
    ),
    faceChallenges: await deleteExpiredChallenges(
      db,
      before(OPERATIONAL_RETENTION.faceChallengesMs),
    ),
    proctoringTokens: await deleteProctoringTokensExpiredBefore(
      db,
      before(OPERATIONAL_RETENTION.proctoringTokensMs),
    ),
    orphanFiles: await removeOrphanFiles(deps, before(OPERATIONAL_RETENTION.orphanFilesMs)),
    strayTemporaryFiles: await deps.files.removeStrayTemporaries(
      before(OPERATIONAL_RETENTION.orphanFilesMs),
    ),
  };
}

/** Files no row references, older than `olderThan` (a write in progress is never that old). */
async function removeOrphanFiles(deps: RetentionDeps, olderThan: Date): Promise<number> {
  const candidates = (await deps.files.list()).filter((file) => file.modifiedAt < olderThan);
  if (candidates.length === 0) return 0;
  const referenced = await findReferencedFileKeys(deps.db);
  let removed = 0;
  for (const file of candidates) {
    if (referenced.has(file.key)) continue;
    await deps.files.remove(file.key);
    removed += 1;
  }
  return removed;
}

// The door of this module for the others (modules import each other only through services).
export { replaceEventCpf } from './retention.repository';
