/**
 * Exam photos by signed address: the short-lived addresses the exam detail
 * and the audit hand out (`api/ExamPhoto/{id}?viewer&expires&signature`),
 * and serving them, with the viewer checked again each time.
 */
import { EXAM_ERRORS, type ExamPhotoLink, type Role } from '@exame/shared';
import type { Database } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import { signedPath, type SignedViewer } from '../../lib/signed-access';
import { insertActivity } from '../activity/activity.service';
import { maySignedViewerOpen } from '../users/users.service';
import { findPhotoWithUnit } from './exam-photos.repository';

export type ExamPhotoDeps = { db: Database; files: FileStorage; signedUrlTtlMs: number };

/** Who opens exam photos by signed address: the exam detail's and the audit's readers. */
export const PHOTO_VIEWERS: readonly Role[] = ['ADMIN', 'auditor'];

/** Signs the addresses of exam photos for one viewer, valid for the configured time. */
export function examPhotoLinker(
  deps: Pick<ExamPhotoDeps, 'files' | 'signedUrlTtlMs'>,
  actor: SessionUser,
): (photoId: string) => string {
  const expiresAt = Date.now() + deps.signedUrlTtlMs;
  return (photoId) =>
    signedPath(deps.files, 'exam-photo', `/api/ExamPhoto/${photoId}`, photoId, actor.id, expiresAt);
}

export function photoLink(
  photo: { id: string; capturedAt: Date; width: number; height: number },
  link: (photoId: string) => string,
): ExamPhotoLink {
  return {
    id: photo.id,
    capturedAt: photo.capturedAt.toISOString(),
    url: link(photo.id),
    width: photo.width,
    height: photo.height,
  };
}

/**
 * `GET api/ExamPhoto/{id}` by signed address: the photo's bytes, after the
 * signature (bound to this route, the photo and the viewer), its expiry and
 * the viewer (still enabled, of the photo's unit, ADMIN or auditor) are
 * checked; each view is written down (`photo_view`) in the photo's unit.
 */
export async function openExamPhoto(
  deps: ExamPhotoDeps,
  access: SignedViewer,
  input: { photoId: string },
): Promise<Buffer> {
  const { photoId } = input;
  const { viewer, expires, signature } = access;
  if (!deps.files.verifyAccess('exam-photo', photoId, viewer, expires, signature)) {
    throw AppError.from(EXAM_ERRORS, 'PHOTO_LINK_INVALID');
  }
  const found = await findPhotoWithUnit(deps.db, photoId);
  if (!found) throw AppError.from(EXAM_ERRORS, 'PHOTO_NOT_FOUND');
  // The viewer as they are now: disabled, moved or demoted, their addresses stop at once.
  const rule = { federativeUnit: found.federativeUnit, roles: PHOTO_VIEWERS };
  if (!(await maySignedViewerOpen(deps.db, viewer, rule))) {
    throw AppError.from(EXAM_ERRORS, 'PHOTO_LINK_INVALID');
  }
  const content = await deps.files.read(found.photo.storageKey);
  await insertActivity(deps.db, {
    type: 'photo_view',
    actorId: viewer,
    federativeUnit: found.federativeUnit,
    payload: { photoId, schedulingId: found.schedulingId },
    target: `exam:${found.schedulingId}`,
  });
  return content;
}
