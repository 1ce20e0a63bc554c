/**
 * Examiner identity ("never a face alone"): who may be an examiner
 * of a room's custody, and how each proves who they are with a factor of
 * their own besides the face:
 *
 * - 'session': the person is the signed-in user;
 * - 'proctoring': examiner 2, whose e-mail and password
 *   `api/Auth/viewer-checkin` checked (named by `proctoringToken`, a proof
 *   given to examiner 1, used once, for one post and record:
 *   proctoring-tokens.ts);
 * - 'password': the separate examiner identity of spec 6 (`cpfViewer`), who
 *   types their own password in the capture flow
 *   (`api/Auth/biometric-viewer-checkin`), checked as a sign-in is.
 *
 * A face verification records the factor that came with it (`own_factor`);
 * the admission reads it back when it uses the verification, and the
 * examiner's row says how they were admitted (`admitted_by`). Only a unit
 * that allows it (`face_alone_allowed`, off by default) admits a face alone
 * ('face_only'), and the record says so. Leaving (check-out, the examiner
 * named by `checkInViewerId`) asks for no factor: leaving is not admission.
 */
import {
  AUTH_ERRORS,
  CHECK_IN_ERRORS,
  EXAMINER_ROLES,
  maskCpf,
  maskEmail,
  type AdmittedBy,
  type OwnFactor,
  type ViewerCheckinResponse,
} from '@exame/shared';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { verifyAccountPassword, verifyCredentials } from '../auth/auth.service';
import type { IdentityDeps } from '../auth/auth.service';
import type { BiopassDeps } from '../face-enrolment/face-enrolment.service';
import { unitAllowsFaceAlone } from '../federative-units/federative-units.service';
import { findUserInUnit, type UserRow } from '../users/users.service';
import {
  issueProctoringToken,
  resolveProctoringToken,
  targetOf,
  useProctoringToken,
  type ProctoringTarget,
} from './proctoring-tokens';

export type ExaminerIdentityDeps = Pick<BiopassDeps, 'db' | 'files'> & { identity: IdentityDeps };

const checkInError = (code: keyof typeof CHECK_IN_ERRORS) => AppError.from(CHECK_IN_ERRORS, code);

/** An examiner of the unit (spec 5: same unit, VIEWER or ROOM_INSPECTOR), by CPF or as found. */
export function checkExaminer(person: UserRow | undefined, actor: SessionUser): UserRow {
  if (!person || person.federativeUnit !== actor.federativeUnit) {
    throw checkInError('CHECKIN_EXAMINER_NOT_FOUND');
  }
  if (!EXAMINER_ROLES.includes(person.role) || person.registerStatus !== 'enabled') {
    throw checkInError('CHECKIN_EXAMINER_NOT_ALLOWED');
  }
  return person;
}

/* ------------------------------------------------------------------------ */
/* Examiner 2's identity (`api/Auth/viewer-checkin`)                         */
/* ------------------------------------------------------------------------ */

/**
 * The examiner 2 a token names, when it was given to `actor`, is unused and
 * still valid, and (as far as `expected` says) is for that post and record;
 * otherwise the refusal PROCTORING_TOKEN_INVALID.
 */
export async function personOfToken(
  deps: ExaminerIdentityDeps,
  actor: SessionUser,
  token: string,
  expected: Partial<ProctoringTarget> = {},
): Promise<UserRow | undefined> {
  const row = await resolveProctoringToken(deps.db, actor, token, expected);
  return findUserInUnit(deps.db, actor.federativeUnit, { id: row.personId });
}

/**
 * `POST api/Auth/viewer-checkin`: examiner 2's e-mail and password, checked
 * with the throttle and the work of a sign-in, without opening a session
 * (examiner 1's session stays as it is). A wrong password is refused as a
 * sign-in is; the second-examiner rules of spec 5 are told only to whoever
 * knows the password. The confirmation is for the post (`schedulingLocal`)
 * or the open record (`checkInId`) examiner 1 names, checked first.
 */
export async function confirmSecondExaminer(
  deps: ExaminerIdentityDeps,
  actor: SessionUser,
  input: {
    email: string;
    password: string;
    firstViewerCpf?: string;
    schedulingLocal?: string;
    checkInId?: string;
    ip: string;
  },
): Promise<ViewerCheckinResponse> {
  const target = await targetOf(deps.db, actor, input);
  const firstCpf = input.firstViewerCpf ?? actor.cpf;
  const person = await verifyCredentials(deps.identity, input);
  if (person.cpf === firstCpf || person.id === actor.id) {
    throw checkInError('CHECKIN_SAME_EXAMINER');
  }
  checkExaminer(person, actor);
  const { token, expiresAt } = await issueProctoringToken(deps.db, actor, person.id, target);
  return {
    // Examiner 2 is named by the token from here on: the browser keeps no whole CPF.
    user: {
      id: person.id,
      name: person.name,
      email: maskEmail(person.email),
      cpf: maskCpf(person.cpf),
      federativeUnit: person.federativeUnit,
      roleDescription: person.role,
    },
    proctoringToken: token,
    expiresAt: expiresAt.toISOString(),
  };
}

/* ------------------------------------------------------------------------ */
/* The factor that comes with a face check                                   */
/* ------------------------------------------------------------------------ */

/** How a face check names its person: by the record being left, by examiner 2's token, or by CPF. */
export type NamedBy = 'record' | 'token' | 'cpf';

/**
 * The separate examiner identity's password, checked as a sign-in checks it
 * (auth.service.ts): the account is looked up by CPF in the actor's unit;
 * the attempt counts against that account by its e-mail (one counter with
 * the sign-in, so this is no way around the sign-in's limit) or, when no
 * account has that CPF, against the CPF asked for; and against the address.
 * One argon2id verification either way; a wrong password, a missing or a
 * disabled account get the same answer. While blocked: `login-blocked`.
 */
export async function verifyExaminerPassword(
  deps: ExaminerIdentityDeps,
  actor: SessionUser,
  input: { cpf: string; password: string; ip: string },
): Promise<UserRow> {
  const user = await findUserInUnit(deps.db, actor.federativeUnit, { cpf: input.cpf });
  try {
    return await verifyAccountPassword(deps.identity, user, {
      account: user?.email ?? `cpf:${actor.federativeUnit}:${input.cpf}`,
      password: input.password,
      ip: input.ip,
    });
  } catch (error) {
    // The person typed a password for a CPF, not an e-mail: the same refusal, in those words.
    if (error instanceof AppError && error.code === 'invalid-credentials') {
      throw AppError.from(
        AUTH_ERRORS,
        'invalid-credentials',
        'CPF ou senha do examinador incorretos.',
      );
    }
    throw error;
  }
}

/**
 * The factor of their own that comes with the face check of `cpf`, decided
 * before the face is read (so a refusal writes nothing): the session, the
 * token, the password typed in the capture flow, none for a check-out, or
 * none where the unit allows face alone; otherwise FACE_OWN_FACTOR_REQUIRED.
 */
export async function captureFactor(
  deps: ExaminerIdentityDeps,
  actor: SessionUser,
  input: { cpf: string; namedBy: NamedBy; password?: string; ip: string },
): Promise<OwnFactor | null> {
  if (input.cpf === actor.cpf) return 'session';
  if (input.namedBy === 'token') return 'proctoring';
  if (input.namedBy === 'record') return null;
  if (input.password) {
    await verifyExaminerPassword(deps, actor, {
      cpf: input.cpf,
      password: input.password,
      ip: input.ip,
    });
    return 'password';
  }
  if (await unitAllowsFaceAlone(deps.db, actor.federativeUnit)) return null;
  throw checkInError('FACE_OWN_FACTOR_REQUIRED');
}

/* ------------------------------------------------------------------------ */
/* Admission: `checkIn`, `update-checkIn`, `transfer`                        */
/* ------------------------------------------------------------------------ */

export type ExaminerEntry = {
  cpf?: string;
  verificationId?: string | null;
  proctoringToken?: string | null;
};

/** How an examiner entry is proven before its face verification (if any) is used. */
export type Proof =
  | { by: 'session' }
  /** By examiner 2's confirmation, used by the admission (issued for a record, or for opening one). */
  | { by: 'proctoring'; tokenId: string; issuedFor: string | null }
  /** By the face verification and the factor recorded with it (or none, where the unit allows it). */
  | { by: 'face'; faceAloneAllowed: boolean };

/** An examiner entry whose identity is proven (or will be, by its face verification's factor). */
export type Admitted = { person: UserRow; verificationId: string | null; proof: Proof };

/**
 * Checks who the entry names and how they prove who they are: the session
 * (the person is the actor), examiner 2's token (live, given to the actor,
 * made for this admission: `admission` names the post and the record, null
 * when opening one; used later, by admitEntry), or, for examiner 1 of a
 * check-in only (`separateIdentity`) where the unit requires face
 * validation, the face verification with the factor recorded with it.
 * Anyone else: CHECKIN_IDENTITY_REQUIRED. Where the unit requires face
 * validation, every entry brings its verification.
 */
export async function proveExaminer(
  deps: ExaminerIdentityDeps,
  actor: SessionUser,
  entry: ExaminerEntry,
  rules: { required: boolean; separateIdentity: boolean; admission: Partial<ProctoringTarget> },
): Promise<Admitted> {
  const token = entry.proctoringToken
    ? await resolveProctoringToken(deps.db, actor, entry.proctoringToken, rules.admission)
    : null;
  const named = await findUserInUnit(
    deps.db,
    actor.federativeUnit,
    token ? { id: token.personId } : { cpf: entry.cpf ?? '' },
  );
  if (token && named && entry.cpf && named.cpf !== entry.cpf) {
    throw checkInError('PROCTORING_TOKEN_INVALID');
  }
  const person = checkExaminer(named, actor);
  let proof: Proof;
  if (person.id === actor.id) proof = { by: 'session' };
  else if (token) proof = { by: 'proctoring', tokenId: token.id, issuedFor: token.checkInId };
  else if (rules.required && rules.separateIdentity) {
    proof = {
      by: 'face',
      faceAloneAllowed: await unitAllowsFaceAlone(deps.db, actor.federativeUnit),
    };
  } else throw checkInError('CHECKIN_IDENTITY_REQUIRED');
  if (!rules.required) return { person, verificationId: null, proof };
  if (!entry.verificationId) throw checkInError('CHECKIN_FACE_REQUIRED');
  return { person, verificationId: entry.verificationId, proof };
}

/**
 * What the examiner's row and history say of the admission, once the face
 * verification (if any) has been used: the proof itself, or the factor the
 * verification recorded; a verification without one admits only where the
 * unit allows face alone ('face_only'), else FACE_OWN_FACTOR_REQUIRED (and
 * the change that used it is rolled back).
 */
function admittedBy(proof: Proof, ownFactor: OwnFactor | null): AdmittedBy {
  if (proof.by !== 'face') return proof.by;
  // 'session' cannot come here (the person would be the actor): it is nobody else's factor.
  if (ownFactor === 'password' || ownFactor === 'proctoring') return ownFactor;
  if (proof.faceAloneAllowed) return 'face_only';
  throw checkInError('FACE_OWN_FACTOR_REQUIRED');
}

/**
 * In the admission's transaction, once the face verification (if any) was
 * used: examiner 2's confirmation is used too (once, for this record and its
 * post: proctoring-tokens.ts), and the answer is how the examiner was
 * admitted (admittedBy); a refusal rolls the admission back.
 */
export async function admitEntry(
  tx: Executor,
  actor: SessionUser,
  record: { id: string; schedulingLocal: string },
  entry: Admitted,
  ownFactor: OwnFactor | null,
): Promise<AdmittedBy> {
  if (entry.proof.by === 'proctoring') {
    await useProctoringToken(tx, actor, {
      tokenId: entry.proof.tokenId,
      personId: entry.person.id,
      issuedFor: entry.proof.issuedFor,
      record,
    });
  }
  return admittedBy(entry.proof, ownFactor);
}
