/**
 * An examiner's face at a room (`api/Auth/biometric-viewer-checkin`): whose
 * face a challenge of the check-in flows is for, the verification itself
 * (after the examiner's own factor: examiner-identity.ts), and the use, once
 * and within CHECK_IN_FACE_TICKET_TTL_MS, of that verification by a
 * check-in or a check-out.
 */
import {
  CHECK_IN_FACE_TICKET_TTL_MS,
  maskCpf,
  type BiometricViewerCheckinResponse,
} from '@exame/shared';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { consumeVerifiedCapture } from '../face-enrolment/face-enrolment.service';
import { verifyBurst } from '../face-enrolment/face-enrolment.service';
import { findUserInUnit } from '../users/users.service';
import { captureFactor, checkExaminer, personOfToken, type NamedBy } from './examiner-identity';
import { faceUrl } from './check-in-face-images';
import { findExaminerOfUnit, isExaminerOf } from './check-ins.repository';
import { checkInError, type CheckInDeps } from './check-in-rules';

/** The CPF of an examiner of an open record the actor is in (examiners leaving on any device). */
async function cpfOfRoomExaminer(deps: CheckInDeps, actor: SessionUser, examinerId: string) {
  const found = await findExaminerOfUnit(deps.db, actor.federativeUnit, examinerId);
  if (!found) throw checkInError('CHECKIN_VIEWER_NOT_FOUND');
  const member =
    found.openedBy === actor.id ||
    (await isExaminerOf(deps.db, found.examiner.checkInId, actor.id));
  if (!member) throw checkInError('CHECKIN_VIEWER_NOT_FOUND');
  if (found.status !== 'open') throw checkInError('CHECKIN_CLOSED');
  return found.examiner.cpf;
}

/**
 * Whose face a challenge of the check-in flows is for (`api/BiopassID/Challenge`):
 * the examiner of a record the actor is in (`checkInViewerId`), examiner 2
 * named by `proctoringToken`, or the CPF given, resolved the way the
 * capture that answers it will resolve it.
 */
export async function challengeSubjectCpf(
  deps: CheckInDeps,
  actor: SessionUser,
  subject: { cpf?: string; checkInViewerId?: string; proctoringToken?: string },
): Promise<string> {
  if (subject.checkInViewerId) return cpfOfRoomExaminer(deps, actor, subject.checkInViewerId);
  if (subject.proctoringToken) {
    return checkExaminer(await personOfToken(deps, actor, subject.proctoringToken), actor).cpf;
  }
  return subject.cpf ?? '';
}

/**
 * Verifies the face of an examiner of the unit at the room of `local`; the
 * verified capture is kept, recorded with the post, the device and the
 * examiner's own factor (checked first: examiner-identity.ts), and the
 * answer (its id) admits that examiner once to a check-in or a check-out.
 */
export async function biometricExaminerCheckIn(
  deps: CheckInDeps,
  actor: SessionUser,
  input: {
    cpf?: string;
    checkInViewerId?: string;
    proctoringToken?: string;
    password?: string;
    ip: string;
    challengeId?: string | null;
    image: string;
    frames?: string[];
    uf?: string;
    local?: string | null;
    deviceId?: string | null;
  },
): Promise<BiometricViewerCheckinResponse> {
  const { password, ip, ...capture } = input;
  const namedBy: NamedBy = input.checkInViewerId
    ? 'record'
    : input.proctoringToken
      ? 'token'
      : 'cpf';
  const cpf = input.checkInViewerId
    ? await cpfOfRoomExaminer(deps, actor, input.checkInViewerId)
    : input.proctoringToken
      ? ((
          await personOfToken(deps, actor, input.proctoringToken, {
            schedulingLocal: input.local ?? '',
          })
        )?.cpf ?? '')
      : (input.cpf ?? '');
  const ownFactor = await captureFactor(deps, actor, { cpf, namedBy, password, ip });
  const person = checkExaminer(await findUserInUnit(deps.db, actor.federativeUnit, { cpf }), actor);
  const { response, captureKey } = await verifyBurst(
    deps,
    actor,
    { ...capture, cpf },
    { keepCapture: true, ownFactor },
  );
  // The level explains the decision to the examiner (never ADMIN: checkExaminer); no raw numbers.
  const level = { similarityLevel: response.similarityLevel };
  if (!response.verified) {
    throw checkInError('FACE_NOT_VERIFIED', response.message).withFields(level);
  }
  return {
    verificationId: response.verificationId,
    name: person.name,
    cpf: maskCpf(person.cpf),
    faceUrl: faceUrl(deps, captureKey, actor.id) ?? '',
    currentDate: new Date().toISOString(),
    ...level,
  };
}

/** Uses the face verification of an examiner: its capture key and the factor that came with it, or a refusal. */
export async function useFaceTicket(
  tx: Executor,
  actor: SessionUser,
  ticket: { verificationId: string; cpf: string; post: string },
) {
  const used = await consumeVerifiedCapture(tx, {
    id: ticket.verificationId,
    federativeUnit: actor.federativeUnit,
    cpf: ticket.cpf,
    requestedBy: actor.id,
    schedulingLocal: ticket.post,
    notBefore: new Date(Date.now() - CHECK_IN_FACE_TICKET_TTL_MS),
  });
  if (!used) throw checkInError('CHECKIN_FACE_INVALID');
  return used;
}
