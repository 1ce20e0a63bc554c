/**
 * Face enrolment and 1:1 verification (`api/BiopassID/Create|Verify`), on
 * the product's own engine. Templates and captures are stored encrypted;
 * every verification is recorded (who, when, result, score, device); every
 * view of a face image is logged.
 */
import {
  FACE_LIVENESS_REQUIRED,
  FACE_SCORE_ROLES,
  FACE_VALIDATION_ONLY_DF,
  FACE_VALIDATION_SUCCESS,
  FACE_VALIDATION_UNIT,
  stripCpf,
  type EnrolResponse,
  type Role,
  type VerifyResponse,
} from '@exame/shared';
import { and, eq, sql } from 'drizzle-orm';
import {
  LEGACY_DESCRIPTOR_VERSION,
  type FaceAnalysis,
  type FaceService,
} from '../../biometrics/face-engine';
import { validateAndNormalizeImage } from '../../biometrics/image';
import type { Database } from '../../db/client';
import { biometricTemplates, biometricVerifications, users } from '../../db/schema/index';
import { faceError } from '../../biometrics/face-errors';
import { AppError, type ErrorDetail } from '../../lib/app-error';
import { templateAad, type FileStorage } from '../../lib/file-storage';
import type { RateLimiter } from '../../lib/rate-limit';
import { signedPath } from '../../lib/signed-access';
import type { SessionUser } from '../../plugins/auth';
import { insertActivity } from '../activity/activity.repository';

export type BiopassDeps = {
  db: Database;
  files: FileStorage;
  face: FaceService;
  signedUrlTtlMs: number;
  limiter: RateLimiter;
};

const notEnrolled = () =>
  AppError.notFound(
    'Não há biometria facial cadastrada para este CPF. Faça o cadastro facial primeiro.',
    'BIOMETRIC_NOT_ENROLLED',
  );
const userNotFound = () => AppError.notFound('Usuário não encontrado!', 'USER_NOT_FOUND');

/** Sealed for this unit and CPF only: copied into another person's row it no longer opens. */
function sealTemplate(
  files: FileStorage,
  owner: { unit: string; cpf: string },
  descriptors: number[][],
): string {
  return files
    .seal(Buffer.from(JSON.stringify(descriptors), 'utf8'), templateAad(owner.unit, owner.cpf))
    .toString('base64');
}

function openTemplate(files: FileStorage, template: TemplateRow): number[][] {
  try {
    const opened = files.open(
      Buffer.from(template.templateSealed, 'base64'),
      templateAad(template.federativeUnit, template.cpf),
    );
    const parsed: unknown = JSON.parse(opened.toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.every((item) => Array.isArray(item) && item.length === 128)
    ) {
      return parsed as number[][];
    }
  } catch {
    // Falls through to the error below: a damaged template cannot be trusted.
  }
  throw new AppError(
    'FACE_TEMPLATE_INVALID',
    'O modelo biométrico armazenado é inválido. Faça um novo cadastro facial.',
    500,
  );
}

async function analyzeCapture(
  face: FaceService,
  image: string,
): Promise<{ analysis: FaceAnalysis; jpeg: Buffer }> {
  const normalised = await validateAndNormalizeImage(image);
  return { analysis: await face.analyze(normalised.jpeg), jpeg: normalised.jpeg };
}

/** `POST api/BiopassID/Create`: enrols (or re-enrols) a user of the caller's unit from 1 to 5 captures. */
export async function enrolFace(
  deps: BiopassDeps,
  actor: SessionUser,
  input: { cpf: string; images: string[] },
): Promise<EnrolResponse> {
  const cpf = stripCpf(input.cpf);
  await deps.limiter.hit('enrolPerUser', actor.id);
  await deps.limiter.hit('enrolPerCpf', `${actor.federativeUnit}:${cpf}`);
  const [person] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.federativeUnit, actor.federativeUnit), eq(users.cpf, cpf)))
    .limit(1);
  if (!person) throw userNotFound();

  const captures = [];
  for (const [index, image] of input.images.entries()) {
    try {
      captures.push(await analyzeCapture(deps.face, image));
    } catch (error) {
      if (error instanceof AppError && input.images.length > 1) {
        throw new AppError(
          error.code,
          `Foto ${index + 1}: ${error.message}`,
          error.status,
          error.details,
        );
      }
      throw error;
    }
  }
  // All captures must show the same person, or the template would accept either.
  for (let i = 0; i < captures.length; i += 1) {
    for (let j = i + 1; j < captures.length; j += 1) {
      const a = captures[i];
      const b = captures[j];
      if (a && b && !deps.face.compare(a.analysis, b.analysis).match) {
        throw new AppError(
          'FACE_ENROL_INCONSISTENT',
          `As fotos ${i + 1} e ${j + 1} parecem ser de pessoas diferentes. Use fotos da mesma pessoa.`,
          422,
        );
      }
    }
  }

  const imageKeys: string[] = [];
  const templateSealed = sealTemplate(
    deps.files,
    { unit: actor.federativeUnit, cpf },
    captures.map((capture) => Array.from(capture.analysis.descriptor)),
  );
  const now = new Date();
  // Files are written before the transaction that references them; if it
  // fails they are removed here (and the retention sweep removes any a crash left).
  for (const capture of captures) imageKeys.push(await deps.files.put(capture.jpeg));
  let previous: string[];
  try {
    previous = await deps.db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ imageKeys: biometricTemplates.imageKeys })
        .from(biometricTemplates)
        .where(
          and(
            eq(biometricTemplates.federativeUnit, actor.federativeUnit),
            eq(biometricTemplates.cpf, cpf),
          ),
        )
        .for('update');
      await tx
        .insert(biometricTemplates)
        .values({
          federativeUnit: actor.federativeUnit,
          cpf,
          templateSealed,
          descriptorVersion: deps.face.descriptorVersion,
          imageKeys,
          enrolledBy: actor.id,
        })
        .onConflictDoUpdate({
          target: [biometricTemplates.federativeUnit, biometricTemplates.cpf],
          set: {
            templateSealed,
            descriptorVersion: deps.face.descriptorVersion,
            imageKeys,
            enrolledBy: actor.id,
            updatedAt: now,
          },
        });
      await insertActivity(tx, {
        type: 'biometric_enrol',
        actorId: actor.id,
        federativeUnit: actor.federativeUnit,
        payload: { cpf, captures: captures.length },
      });
      return existing?.imageKeys ?? [];
    });
  } catch (error) {
    for (const key of imageKeys) await deps.files.remove(key);
    throw error;
  }
  // Captures of a replaced enrolment serve no purpose any more (LGPD: keep only what is needed).
  for (const key of previous) await deps.files.remove(key);
  return { cpf, captures: captures.length, enrolledAt: now.toISOString() };
}

type TemplateRow = typeof biometricTemplates.$inferSelect;

async function findTemplate(db: Database, unit: string, cpf: string): Promise<TemplateRow | null> {
  const [row] = await db
    .select()
    .from(biometricTemplates)
    .where(and(eq(biometricTemplates.federativeUnit, unit), eq(biometricTemplates.cpf, cpf)))
    .limit(1);
  return row ?? null;
}

/**
 * Descriptors of another engine version are not comparable with this one's,
 * so a template enrolled under another version is recomputed from its stored
 * enrolment captures (all at once, so the pool's workers share them), saved
 * (unless it was re-enrolled meanwhile) and logged. A capture the current
 * engine refuses (a gate that became stricter) or whose file is gone is left
 * out while at least one remains; with none, the person must enrol again.
 * Failures of the engine itself are not the template's fault and pass through.
 */
async function upToDateTemplate(
  deps: BiopassDeps,
  template: TemplateRow,
  retried = false,
): Promise<number[][]> {
  const from = template.descriptorVersion ?? LEGACY_DESCRIPTOR_VERSION;
  if (from === deps.face.descriptorVersion) {
    return openTemplate(deps.files, template);
  }
  const results = await Promise.allSettled(
    template.imageKeys.map(async (key) =>
      Array.from((await deps.face.analyze(await deps.files.read(key))).descriptor),
    ),
  );
  const descriptors: number[][] = [];
  const leftOut: ErrorDetail[] = [];
  for (const [index, result] of results.entries()) {
    if (result.status === 'fulfilled') {
      descriptors.push(result.value);
      continue;
    }
    const error: unknown = result.reason;
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    if (error.code === 'FILE_UNAVAILABLE' && !retried) {
      // A new enrolment (or the retention purge) may have replaced the
      // captures while they were read: start again from the row as it is now.
      const current = await findTemplate(deps.db, template.federativeUnit, template.cpf);
      if (!current) throw notEnrolled();
      if (current.templateSealed !== template.templateSealed) {
        return upToDateTemplate(deps, current, true);
      }
    }
    leftOut.push({ path: `captures.${index}`, message: `${error.code}: ${error.message}` });
  }
  if (descriptors.length === 0) throw faceError('FACE_TEMPLATE_OUTDATED', leftOut);
  const templateSealed = sealTemplate(
    deps.files,
    { unit: template.federativeUnit, cpf: template.cpf },
    descriptors,
  );
  await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(biometricTemplates)
      .set({ templateSealed, descriptorVersion: deps.face.descriptorVersion })
      .where(
        and(
          eq(biometricTemplates.id, template.id),
          eq(biometricTemplates.templateSealed, template.templateSealed),
        ),
      )
      .returning({ id: biometricTemplates.id });
    if (updated.length === 0) return;
    await insertActivity(tx, {
      type: 'biometric_template_upgrade',
      actorId: null,
      federativeUnit: template.federativeUnit,
      payload: {
        cpf: template.cpf,
        from,
        to: deps.face.descriptorVersion,
        captures: descriptors.length,
        leftOut: leftOut.map((detail) => detail.message),
      },
    });
  });
  return descriptors;
}

export type VerifyResult = VerifyResponse;
type Liveness = NonNullable<VerifyResponse['liveness']>;

/** Only the roles that judge a verification see how close it was (a score can be climbed). */
function forRole(role: Role, result: Required<VerifyResponse>): VerifyResponse {
  if ((FACE_SCORE_ROLES as readonly Role[]).includes(role)) return result;
  return {
    verificationId: result.verificationId,
    cpf: result.cpf,
    verified: result.verified,
    message: result.message,
  };
}

/**
 * `POST api/BiopassID/Verify`: 1:1 against the enrolled template of the
 * caller's unit. A decision needs the burst of frames and its liveness check:
 * a still picture alone is refused, never passed.
 */
export async function verifyFace(
  deps: BiopassDeps,
  actor: SessionUser,
  input: {
    cpf: string;
    image: string;
    frames?: string[];
    local?: string | null;
    deviceId?: string | null;
  },
): Promise<VerifyResult> {
  if (actor.federativeUnit !== FACE_VALIDATION_UNIT) {
    throw new AppError('FACE_VALIDATION_UNAVAILABLE', FACE_VALIDATION_ONLY_DF, 400);
  }
  const cpf = stripCpf(input.cpf);
  await deps.limiter.hit('verifyPerUser', actor.id);
  await deps.limiter.hit('verifyPerCpf', `${actor.federativeUnit}:${cpf}`);

  const record = async (values: Partial<typeof biometricVerifications.$inferInsert>) => {
    const [row] = await deps.db
      .insert(biometricVerifications)
      .values({
        federativeUnit: actor.federativeUnit,
        cpf,
        requestedBy: actor.id,
        deviceId: input.deviceId ?? null,
        schedulingLocal: input.local ?? null,
        match: false,
        threshold: deps.face.threshold,
        ...values,
      })
      .returning({ id: biometricVerifications.id });
    return row?.id ?? '';
  };

  const burst = input.frames ?? [];
  if (burst.length < 2) {
    await record({ errorCode: 'FACE_LIVENESS_REQUIRED' });
    throw new AppError('FACE_LIVENESS_REQUIRED', FACE_LIVENESS_REQUIRED, 422);
  }
  const template = await findTemplate(deps.db, actor.federativeUnit, cpf);
  if (!template) throw notEnrolled();
  const enrolled = await upToDateTemplate(deps, template);

  let probe: FaceAnalysis;
  let probeJpeg: Buffer;
  const frames: Buffer[] = [];
  try {
    const analysed = await analyzeCapture(deps.face, input.image);
    probe = analysed.analysis;
    probeJpeg = analysed.jpeg;
    for (const frame of burst) frames.push((await validateAndNormalizeImage(frame)).jpeg);
  } catch (error) {
    if (error instanceof AppError) await record({ errorCode: error.code });
    throw error;
  }
  const best = enrolled
    .map((descriptor) => deps.face.compare(probe, descriptor))
    .reduce((a, b) => (b.distance < a.distance ? b : a));

  let liveness: Liveness;
  if (!frames.some((frame) => frame.equals(probeJpeg))) {
    // The burst must contain the verified picture, or a live burst of anyone could vouch for a photo.
    liveness = {
      checked: true,
      passed: false,
      checks: null,
      note: 'A foto validada não faz parte da sequência capturada.',
    };
  } else {
    try {
      const checked = await deps.face.checkBurst(frames);
      liveness = {
        checked: true,
        passed: checked.passed,
        checks: checked.checks,
        note: 'Sinal de vivacidade (mesmo rosto, movimento natural, quadros distintos); não é prova de vida.',
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      liveness = { checked: true, passed: false, checks: null, note: error.message };
    }
  }
  const verified = best.match && liveness.passed === true;
  const verificationId = await record({
    match: best.match,
    distance: best.distance,
    liveness: liveness as unknown as Record<string, unknown>,
  });
  return forRole(actor.role, {
    verificationId,
    cpf,
    match: best.match,
    verified,
    distance: Number(best.distance.toFixed(4)),
    similarity: Number(best.similarity.toFixed(4)),
    threshold: best.threshold,
    liveness,
    message: verified
      ? FACE_VALIDATION_SUCCESS
      : !best.match
        ? 'O rosto capturado não corresponde ao cadastro facial deste CPF.'
        : 'Não foi possível confirmar que a captura foi feita ao vivo. Movimente levemente o rosto durante a captura e tente novamente.',
  });
}

/** The enrolment of a CPF with short-lived addresses of its captures (each view is logged when opened). */
export async function getEnrolment(deps: BiopassDeps, actor: SessionUser, cpfInput: string) {
  const cpf = stripCpf(cpfInput);
  const template = await findTemplate(deps.db, actor.federativeUnit, cpf);
  if (!template) throw notEnrolled();
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

export async function readFaceImage(
  deps: BiopassDeps,
  key: string,
  access: { viewer: string; expires: number; signature: string },
): Promise<Buffer> {
  if (
    !deps.files.verifyAccess('face-image', key, access.viewer, access.expires, access.signature)
  ) {
    throw AppError.forbidden('Endereço da imagem inválido ou expirado. Recarregue a página.');
  }
  const [template] = await deps.db
    .select({
      federativeUnit: biometricTemplates.federativeUnit,
      cpf: biometricTemplates.cpf,
      imageKeys: biometricTemplates.imageKeys,
    })
    .from(biometricTemplates)
    .where(sqlContains(key))
    .limit(1);
  if (!template) throw AppError.notFound('Imagem não encontrada.', 'FACE_IMAGE_NOT_FOUND');
  const content = await deps.files.read(key);
  await insertActivity(deps.db, {
    type: 'face_image_view',
    actorId: access.viewer,
    federativeUnit: template.federativeUnit,
    payload: { cpf: template.cpf },
  });
  return content;
}

function sqlContains(key: string) {
  return sql`${biometricTemplates.imageKeys} @> ${JSON.stringify([key])}::jsonb`;
}
