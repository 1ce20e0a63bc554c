/**
 * Face enrolment and 1:1 verification (`api/BiopassID/Create|Verify`), on
 * the product's own engine: the rules, in order, of each call. Templates and
 * captures are stored encrypted (template-sealing.ts, FileStorage); every
 * verification is recorded (who, when, result, score, device); every view of
 * a face image is logged.
 */
import {
  BIOPASS_ERRORS,
  DEMO_ERRORS,
  DEMO_UNIT,
  FACE_JUDGE_ROLES,
  FACE_SCORE_ROLES,
  FACE_VALIDATION_SUCCESS,
  FACE_VALIDATION_UNIT,
  isCallerUnit,
  stripCpf,
  type Enrolment,
  type EnrolResponse,
  type FaceChallengePurpose,
  similarityLevel,
  type Role,
  type VerifyResponse,
} from '@exame/shared';
import { templateOf } from '../../biometrics/descriptor';
import { checkEnrolmentCapture } from '../../biometrics/enrolment-gate';
import { faceError } from '../../biometrics/face-errors';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { RateLimiter } from '../../db/rate-limit';
import { signedPath, type SignedViewer } from '../../lib/signed-access';
import type { Pseudonymizer } from '../../lib/pseudonym';
import { insertActivity } from '../activity/activity.service';
import { cpfTarget } from '../activity/activity.service';
import { findUserInUnit } from '../users/users.service';
import { maySignedViewerOpen } from '../users/users.service';
import {
  findTemplate,
  findTemplateOwnerByImageKey,
  insertVerification,
  lockTemplateImageKeys,
  upsertTemplate,
} from './face-enrolment.repository';
import { compareTake, neutralIndexes, runTake, takeLiveness } from './face-takes.service';
import { currentDescriptors, type TemplateDeps } from './face-templates.service';
import { sealTemplate } from './template-sealing';

export type BiopassDeps = TemplateDeps & {
  signedUrlTtlMs: number;
  limiter: RateLimiter;
  /** Names the person an activity event is about (`target` cpf:<pseudonym>), never by CPF. */
  pseudonym: Pseudonymizer;
};

/** `uf`, when sent, must be the caller's unit: nothing is done for another unit. */
function checkUnit(actor: SessionUser, uf: string | null | undefined): void {
  if (!isCallerUnit(uf, actor.federativeUnit)) {
    throw AppError.from(BIOPASS_ERRORS, 'FACE_UNIT_MISMATCH');
  }
}

/**
 * Whose face an enrolment is: a user of the caller's unit (`api/BiopassID/Create`),
 * or a demonstration candidate of DEMO (`api/Demo/candidates/{cpf}/enrol`), who
 * is no user: `confirm` runs inside the enrolment's transaction, before the
 * template is written, and throws when the candidate may not be enrolled
 * (gone, or without a current consent).
 */
export type EnrolSubject =
  { subject: 'user' } | { subject: 'demo-candidate'; confirm: (tx: Executor) => Promise<void> };

/**
 * `POST api/BiopassID/Create`: enrols (or re-enrols) a user of the caller's
 * unit from a take answering an enrolment challenge. The take
 * must follow the challenge live; its pictures that look at the camera must
 * each pass the enrolment gate (enrolment-gate.ts: neutral expression, facing
 * the camera, sharp, large enough, not occluded), and the template is made
 * of their descriptors: several frames of one capture, not one picture.
 */
export async function enrolFace(
  deps: BiopassDeps,
  actor: SessionUser,
  input: {
    cpf: string;
    challengeId?: string | null;
    image: string;
    frames?: string[];
    uf?: string | null;
  },
  options: EnrolSubject = { subject: 'user' },
): Promise<EnrolResponse> {
  checkUnit(actor, input.uf);
  const cpf = stripCpf(input.cpf);
  await deps.limiter.hit('enrolPerUser', actor.id);
  await deps.limiter.hit('enrolPerCpf', `${actor.federativeUnit}:${cpf}`);
  if (options.subject === 'user') {
    const person = await findUserInUnit(deps.db, actor.federativeUnit, { cpf });
    if (!person) throw AppError.from(BIOPASS_ERRORS, 'USER_NOT_FOUND');
  } else if (actor.federativeUnit !== DEMO_UNIT) {
    throw AppError.from(DEMO_ERRORS, 'DEMO_UNIT_ONLY');
  }

  const take = await runTake(deps, actor, { ...input, cpf, purposes: ['enrolment'] });
  const captures = neutralIndexes(take)
    .map((index) => take.captures[index])
    .filter(isDefined);
  for (const [order, capture] of captures.entries()) {
    const gate = checkEnrolmentCapture(capture.analysis);
    if (!gate.ok) {
      const refused = faceError(gate.code);
      throw new AppError(
        refused.code,
        `${order === 0 ? 'Na primeira foto' : 'Na última foto'} da captura: ${refused.message}`,
        refused.status,
      );
    }
  }

  const owner = { federativeUnit: actor.federativeUnit, cpf };
  const templateSealed = sealTemplate(
    deps.files,
    owner,
    captures.map((capture) => templateOf(capture.analysis)),
  );
  const now = new Date();
  // Files are written before the transaction that references them; if it
  // fails they are removed here (and the retention sweep removes any a crash left).
  const imageKeys: string[] = [];
  let previous: string[];
  try {
    for (const capture of captures) imageKeys.push(await deps.files.put(capture.jpeg));
    previous = await deps.db.transaction(async (tx) => {
      if (options.subject === 'demo-candidate') await options.confirm(tx);
      const existing = await lockTemplateImageKeys(tx, actor.federativeUnit, cpf);
      await upsertTemplate(
        tx,
        {
          ...owner,
          templateSealed,
          descriptorVersion: deps.face.descriptorVersion,
          imageKeys,
          enrolledBy: actor.id,
        },
        now,
      );
      await insertActivity(tx, {
        type: 'biometric_enrol',
        actorId: actor.id,
        federativeUnit: actor.federativeUnit,
        payload: {
          cpf,
          captures: captures.length,
          challengeId: take.challengeId,
          ...(options.subject === 'demo-candidate' ? { subject: options.subject } : {}),
        },
      });
      return existing ?? [];
    });
  } catch (error) {
    for (const key of imageKeys) await deps.files.remove(key);
    throw error;
  }
  // Captures of a replaced enrolment serve no purpose any more (LGPD: keep only what is needed).
  for (const key of previous) await deps.files.remove(key);
  return { cpf, captures: captures.length, enrolledAt: now.toISOString() };
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

/**
 * Every role gets the decision and the plain level; the roles that judge a
 * verification also the match and the liveness checks; the raw numbers stay
 * on ADMIN screens (a score can be climbed a little at a time).
 */
function forRole(role: Role, result: Required<VerifyResponse>): VerifyResponse {
  if ((FACE_SCORE_ROLES as readonly Role[]).includes(role)) return result;
  const decision = {
    verificationId: result.verificationId,
    cpf: result.cpf,
    verified: result.verified,
    message: result.message,
    similarityLevel: result.similarityLevel,
  };
  if (!(FACE_JUDGE_ROLES as readonly Role[]).includes(role)) return decision;
  return { ...decision, match: result.match, liveness: result.liveness };
}

export type VerifyInput = {
  cpf: string;
  challengeId?: string | null;
  image: string;
  frames?: string[];
  uf?: string | null;
  local?: string | null;
  deviceId?: string | null;
};

/**
 * `POST api/BiopassID/Verify`: 1:1 against the enrolled template of the
 * caller's unit, on a take that answers a verification challenge.
 */
export async function verifyFace(
  deps: BiopassDeps,
  actor: SessionUser,
  input: VerifyInput,
): Promise<VerifyResponse> {
  const { response } = await verifyBurst(deps, actor, input, { keepCapture: false });
  return forRole(actor.role, response);
}

/**
 * The verification itself, with every score, on a take answering a
 * challenge of one of `purposes` (runTake: a take that does not follow it
 * is refused and nothing is written). With `keepCapture`, a verified
 * take's first picture is kept (encrypted) as the evidence of what it admits
 * (an examiner's check-in or check-out), and its key is recorded with the
 * verification; a take that did not verify keeps nothing. `ownFactor` is the
 * person's own proof that came with the face (null: the face alone).
 *
 * `demonstration` is for the demonstration flows only (demo.service.ts): an
 * ADMIN of DEMO shows the engine to a demonstration candidate. That is not
 * the face validation of the check-in, which spec 5 keeps to DF, so the DF
 * gate is replaced by a DEMO one; everything else (threshold, challenge,
 * limits, the record of the verification) is the same.
 */
export async function verifyBurst(
  deps: BiopassDeps,
  actor: SessionUser,
  input: VerifyInput,
  options: {
    keepCapture: boolean;
    demonstration?: boolean;
    purposes?: readonly FaceChallengePurpose[];
    ownFactor?: 'session' | 'password' | 'proctoring' | null;
  },
): Promise<{ response: Required<VerifyResponse>; captureKey: string | null }> {
  if (options.demonstration) {
    if (actor.federativeUnit !== DEMO_UNIT) throw AppError.from(DEMO_ERRORS, 'DEMO_UNIT_ONLY');
  } else if (actor.federativeUnit !== FACE_VALIDATION_UNIT) {
    throw AppError.from(BIOPASS_ERRORS, 'FACE_VALIDATION_UNAVAILABLE');
  }
  checkUnit(actor, input.uf);
  const cpf = stripCpf(input.cpf);
  await deps.limiter.hit('verifyPerUser', actor.id);
  // Per user and CPF: one user's attempts never lock another user out of a CPF;
  // then every user together, under a ceiling no one user reaches alone.
  await deps.limiter.hit('verifyPerCpf', `${actor.id}:${actor.federativeUnit}:${cpf}`);
  await deps.limiter.hit('verifyPerCpfAll', `${actor.federativeUnit}:${cpf}`);

  // The unit's own threshold (FACE_MATCH_THRESHOLD_BY_UNIT) decides, and is recorded.
  const threshold = deps.face.thresholdFor(actor.federativeUnit);
  const template = await findTemplate(deps.db, actor.federativeUnit, cpf);
  if (!template) throw AppError.from(BIOPASS_ERRORS, 'BIOMETRIC_NOT_ENROLLED');
  const purposes = options.purposes ?? (options.keepCapture ? CHECK_IN_PURPOSES : ['verification']);
  const take = await runTake(deps, actor, { ...input, cpf, purposes });
  const enrolled = await currentDescriptors(deps, template);
  const best = compareTake((a, b) => deps.face.compare(a, b, threshold), take, enrolled);

  const liveness = takeLiveness(take);
  const verified = best.match;
  const probe = take.captures[0];
  // The file is written before the row that names it; if the row is not
  // written, the file is removed (and the retention sweep removes any a crash left).
  const captureKey =
    verified && options.keepCapture && probe ? await deps.files.put(probe.jpeg) : null;
  let verificationId: string;
  try {
    verificationId = await insertVerification(deps.db, {
      federativeUnit: actor.federativeUnit,
      cpf,
      requestedBy: actor.id,
      deviceId: input.deviceId ?? null,
      schedulingLocal: input.local ?? null,
      threshold,
      match: best.match,
      verified,
      captureKey,
      distance: best.distance,
      liveness: liveness as unknown as Record<string, unknown>,
      challengeId: take.challengeId,
      ownFactor: options.ownFactor ?? null,
    });
  } catch (error) {
    if (captureKey) await deps.files.remove(captureKey);
    throw error;
  }
  return {
    captureKey,
    response: {
      verificationId,
      cpf,
      match: best.match,
      verified,
      similarityLevel: similarityLevel(best.distance, best.threshold),
      distance: Number(best.distance.toFixed(4)),
      similarity: Number(best.similarity.toFixed(4)),
      threshold: best.threshold,
      liveness: {
        checked: true,
        passed: true,
        checks: liveness.checks,
        note: liveness.note,
      },
      message: verified
        ? FACE_VALIDATION_SUCCESS
        : 'O rosto capturado não corresponde ao cadastro facial deste CPF.',
    },
  };
}

/** The purposes a take for an examiner's check-in or check-out may answer. */
const CHECK_IN_PURPOSES: readonly FaceChallengePurpose[] = ['check-in', 'check-out'];

/** Who reads an enrolment and opens its captures (`GET api/BiopassID/{cpf}`, its signed addresses). */
export const ENROLMENT_VIEWERS: readonly Role[] = ['ADMIN', 'auditor'];

/** The enrolment of a CPF with short-lived addresses of its captures (each view is logged when opened). */
export async function getEnrolment(
  deps: BiopassDeps,
  actor: SessionUser,
  input: { cpf: string },
): Promise<Enrolment> {
  const cpf = stripCpf(input.cpf);
  const template = await findTemplate(deps.db, actor.federativeUnit, cpf);
  if (!template) throw AppError.from(BIOPASS_ERRORS, 'BIOMETRIC_NOT_ENROLLED');
  const expiresAt = Date.now() + deps.signedUrlTtlMs;
  return {
    cpf,
    enrolledAt: template.updatedAt.toISOString(),
    captures: template.imageKeys.map((key) => ({
      url: signedPath(
        deps.files,
        'face-image',
        `/api/BiopassID/image/${key}`,
        key,
        actor.id,
        expiresAt,
      ),
    })),
  };
}

/**
 * `GET api/BiopassID/image/{key}` by signed address: the capture's bytes,
 * once the signature (bound to this route, the capture and the viewer), its
 * expiry and the viewer (still enabled, of the capture's unit, a role that
 * reads enrolments) are checked; each view is written down (`face_image_view`).
 */
export async function readFaceImage(
  deps: BiopassDeps,
  access: SignedViewer,
  input: { key: string },
): Promise<Buffer> {
  const { key } = input;
  if (
    !deps.files.verifyAccess('face-image', key, access.viewer, access.expires, access.signature)
  ) {
    throw AppError.from(BIOPASS_ERRORS, 'FACE_IMAGE_LINK_INVALID');
  }
  const owner = await findTemplateOwnerByImageKey(deps.db, key);
  if (!owner) throw AppError.from(BIOPASS_ERRORS, 'FACE_IMAGE_NOT_FOUND');
  // The viewer as they are now: disabled, moved or demoted, their addresses stop at once.
  const rule = { federativeUnit: owner.federativeUnit, roles: ENROLMENT_VIEWERS };
  if (!(await maySignedViewerOpen(deps.db, access.viewer, rule))) {
    throw AppError.from(BIOPASS_ERRORS, 'FACE_IMAGE_LINK_INVALID');
  }
  const content = await deps.files.read(key);
  await insertActivity(deps.db, {
    type: 'face_image_view',
    actorId: access.viewer,
    federativeUnit: owner.federativeUnit,
    payload: { cpf: owner.cpf },
    target: cpfTarget(deps.pseudonym, owner.cpf),
  });
  return content;
}

// The door of this module for the others (modules import each other only through services).
export { consumeVerifiedCapture, findCaptureOwner } from './face-enrolment.repository';
