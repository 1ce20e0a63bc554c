/**
 * The unit's rules of a check-in (spec 2-9): what the caller's unit requires
 * (face validation, a second examiner, proctoring, face alone), the error
 * every check-in operation throws, and the parts a check-in operation uses.
 */
import {
  CHECK_IN_ERRORS,
  CHECK_IN_MAX_VIEWERS,
  FACE_VALIDATION_UNIT,
  type CheckInConfig,
  type Role,
} from '@exame/shared';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { IdentityDeps } from '../auth/auth.service';
import type { BiopassDeps } from '../face-enrolment/face-enrolment.service';
import { findFederativeUnit } from '../federative-units/federative-units.service';

/** The face engine's parts (verification) and the identity's (examiner 2's password). */
export type CheckInDeps = BiopassDeps & { identity: IdentityDeps };

export const checkInError = (code: keyof typeof CHECK_IN_ERRORS, message?: string) =>
  AppError.from(CHECK_IN_ERRORS, code, message);

export const SEES_EVERY_RECORD: readonly Role[] = ['ADMIN', 'auditor'];

/** Whether the unit requires face validation of every examiner (spec 5: DF). */
export function faceRequired(unit: string): boolean {
  return unit === FACE_VALIDATION_UNIT;
}

/** `GET getConfig?federativeUnit`: what the caller's unit requires of a check-in. */
export async function getConfig(
  deps: CheckInDeps,
  actor: SessionUser,
  input: { federativeUnit: string },
): Promise<CheckInConfig> {
  if (input.federativeUnit.trim().toUpperCase() !== actor.federativeUnit) {
    throw checkInError('CHECKIN_OTHER_UNIT');
  }
  const unit = await findFederativeUnit(deps.db, actor.federativeUnit);
  return {
    federativeUnit: actor.federativeUnit,
    faceValidationRequired: faceRequired(actor.federativeUnit),
    secondExaminerAllowed: true,
    maxViewers: CHECK_IN_MAX_VIEWERS,
    proctoringEnabled: unit?.isProctoringEnable ?? false,
    faceAloneAllowed: unit?.faceAloneAllowed ?? false,
  };
}
