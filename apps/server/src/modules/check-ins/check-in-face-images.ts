/**
 * The captures of a room's check-in and check-out by signed address
 * (`api/SchedulingLocalCheckIn/face/{key}?viewer&expires&signature`): the
 * short-lived addresses the records and the face check hand out, and serving
 * them, with the viewer checked again each time.
 */
import { BIOPASS_ERRORS, ROLES, type Role } from '@exame/shared';
import { AppError } from '../../lib/app-error';
import { signedPath, type SignedViewer } from '../../lib/signed-access';
import { insertActivity } from '../activity/activity.service';
import { cpfTarget } from '../activity/activity.service';
import { findCaptureOwner } from '../face-enrolment/face-enrolment.service';
import type { BiopassDeps } from '../face-enrolment/face-enrolment.service';
import { maySignedViewerOpen } from '../users/users.service';

type FaceImageDeps = Pick<BiopassDeps, 'db' | 'files' | 'pseudonym' | 'signedUrlTtlMs'>;

const FACE_IMAGE_PATH = '/api/SchedulingLocalCheckIn/face';
/** Who is handed these addresses: every role that reads a record (examiners their own, ADMIN and AUDITOR any). */
const CHECK_IN_FACE_VIEWERS: readonly Role[] = ROLES;

/** The signed address of a capture for `viewer`, valid for the configured time; none without a capture. */
export function faceUrl(deps: FaceImageDeps, key: string | null, viewer: string): string | null {
  if (!key) return null;
  const expiresAt = Date.now() + deps.signedUrlTtlMs;
  return signedPath(
    deps.files,
    'check-in-face',
    `${FACE_IMAGE_PATH}/${key}`,
    key,
    viewer,
    expiresAt,
  );
}

/**
 * `GET face/{key}` by signed address: a check-in or check-out capture, once
 * the signature (bound to this route, the capture and the viewer), its
 * expiry and the viewer (still enabled, of the capture's unit, a role that
 * reads records) are checked; each view is written down (`face_image_view`).
 */
export async function readCheckInFace(
  deps: FaceImageDeps,
  access: SignedViewer,
  input: { key: string },
): Promise<Buffer> {
  const linkInvalid = () => AppError.from(BIOPASS_ERRORS, 'FACE_IMAGE_LINK_INVALID');
  if (
    !deps.files.verifyAccess(
      'check-in-face',
      input.key,
      access.viewer,
      access.expires,
      access.signature,
    )
  ) {
    throw linkInvalid();
  }
  const owner = await findCaptureOwner(deps.db, input.key);
  if (!owner) throw AppError.from(BIOPASS_ERRORS, 'FACE_IMAGE_NOT_FOUND');
  // The viewer as they are now: disabled, moved or demoted, their addresses stop at once.
  const rule = { federativeUnit: owner.federativeUnit, roles: CHECK_IN_FACE_VIEWERS };
  if (!(await maySignedViewerOpen(deps.db, access.viewer, rule))) throw linkInvalid();
  const content = await deps.files.read(input.key);
  await insertActivity(deps.db, {
    type: 'face_image_view',
    actorId: access.viewer,
    federativeUnit: owner.federativeUnit,
    payload: { cpf: owner.cpf, purpose: 'check-in' },
    target: cpfTarget(deps.pseudonym, owner.cpf),
  });
  return content;
}
