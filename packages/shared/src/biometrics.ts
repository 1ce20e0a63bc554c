/** Face verification answers shared by the BiopassID API and the capture screens (spec 3, 5, 8). */
import { z } from 'zod';
import { errorCatalogue } from './errors';
import { challengeIdSchema } from './face-challenge';
import { USER_NOT_FOUND_MESSAGE } from './users';

/** Spec 5: face validation runs only for the Federal District. */
export const FACE_VALIDATION_UNIT = 'DF';
export const FACE_VALIDATION_ONLY_DF =
  'A validação facial está disponível apenas para o Distrito Federal';
export const FACE_VALIDATION_SUCCESS = 'Sua validação biométrica foi concluída.';

/**
 * The device identifier each browser creates once (spec 3: a UUID v4,
 * persisted as deviceId), whether it comes in a body or in `x-device-id`.
 */
export const deviceIdSchema = z.uuid({
  version: 'v4',
  message: 'Identificador de dispositivo inválido.',
});

/**
 * Size cap of a picture, in base64 characters. A camera capture (640x400
 * JPEG, spec 9) is about 60 KB; 1 MiB of base64 (768 KB of JPEG) leaves room
 * for larger cameras. Enrolment is a live take too: the same cap.
 */
export const FACE_CAPTURE_MAX_CHARS = 1_048_576;

/**
 * A take is its first picture (`image`) followed by the others (`frames`,
 * which never repeat `image`): each picture is sent, and analysed, once. A
 * challenge of 2 or 3 movements makes 4 or 5 pictures (face-challenge.ts).
 */
export const FACE_BURST_MIN_PICTURES = 4;
export const FACE_BURST_MAX_PICTURES = 5;
/** Bounds of `frames` alone: the burst without `image`. */
export const FACE_BURST_MIN_FRAMES = FACE_BURST_MIN_PICTURES - 1;
export const FACE_BURST_MAX_FRAMES = FACE_BURST_MAX_PICTURES - 1;

/** Room for the other fields and the JSON around the pictures. */
const BODY_OVERHEAD = 64 * 1024;
/** The body limit that follows from the caps: the whole take, `image` included. */
export const FACE_VERIFY_BODY_LIMIT =
  FACE_BURST_MAX_PICTURES * FACE_CAPTURE_MAX_CHARS + BODY_OVERHEAD;
export const FACE_ENROL_BODY_LIMIT = FACE_VERIFY_BODY_LIMIT;

/**
 * The roles that see the raw numbers of a face comparison (distance,
 * similarity, threshold): ADMIN screens only. The people who decide
 * (auditors, examiners) get the plain level (similarityLevel), so a score
 * cannot be climbed a little at a time.
 */
export const FACE_SCORE_ROLES = ['ADMIN'] as const;
/** The roles that judge a verification: besides the level, the match and the liveness checks. */
export const FACE_JUDGE_ROLES = ['ADMIN', 'auditor'] as const;

/** How alike two faces are, in plain words, from the fused distance and the unit's threshold. */
export const SIMILARITY_LEVELS = ['alta', 'média', 'baixa'] as const;
export type SimilarityLevel = (typeof SIMILARITY_LEVELS)[number];
export const similarityLevelSchema = z.enum(SIMILARITY_LEVELS);
export const SIMILARITY_LEVEL_LABELS: Readonly<Record<SimilarityLevel, string>> = {
  alta: 'Similaridade alta',
  média: 'Similaridade média',
  baixa: 'Similaridade baixa',
};

/**
 * Width of the `média` band under the threshold, on the fused distance.
 * Chosen from the dev pairs of `npm run face:fusion-study -w research`
 * (291 genuine / 978 impostor, as is and degraded): a worse capture of the
 * same person moves the fused distance up by a median 0.019 and a 75th
 * percentile of 0.036 (JPEG q10 alone: 0.037 and 0.058), so an accepted pair
 * within 0.06 of the threshold is one bad capture away from a rejection:
 * accepted, but close. That band holds 23% of the accepted dev pairs (59 of
 * 260; 6 of the 32 accepted as-is pairs), and the 11 closest impostors sit
 * within 0.06 above the default threshold 0.69 (the closest at 0.704).
 */
export const SIMILARITY_MEDIUM_MARGIN = 0.06;

/**
 * `alta` under threshold - margin, `média` from there up to the threshold
 * (accepted, but close), `baixa` at the threshold and above (not the same
 * person by the engine) or for a distance that is not a number.
 */
export function similarityLevel(
  distance: number,
  threshold: number,
  margin: number = SIMILARITY_MEDIUM_MARGIN,
): SimilarityLevel {
  if (!Number.isFinite(distance) || !(distance < threshold)) return 'baixa';
  return distance < threshold - margin ? 'alta' : 'média';
}

/**
 * The errors of `api/BiopassID` decided by its rules (the engine's own, about
 * a capture, live on the server with the engine). `uf`, when sent, must be
 * the caller's unit: a verification or an enrolment is never run for another
 * unit, and a wrong `uf` is refused rather than silently replaced.
 */
export const BIOPASS_ERRORS = errorCatalogue({
  FACE_VALIDATION_UNAVAILABLE: { status: 400, message: FACE_VALIDATION_ONLY_DF },
  FACE_UNIT_MISMATCH: {
    status: 403,
    message:
      'A unidade informada não é a sua unidade. A validação facial só pode ser feita na unidade do usuário conectado.',
  },
  BIOMETRIC_NOT_ENROLLED: {
    status: 404,
    message: 'Não há biometria facial cadastrada para este CPF. Faça o cadastro facial primeiro.',
  },
  USER_NOT_FOUND: { status: 404, message: USER_NOT_FOUND_MESSAGE },
  FACE_IMAGE_NOT_FOUND: { status: 404, message: 'Imagem não encontrada.' },
  FACE_IMAGE_LINK_INVALID: {
    status: 403,
    message: 'Endereço da imagem inválido ou expirado. Recarregue a página.',
  },
});
export type BiopassErrorCode = keyof typeof BIOPASS_ERRORS;

/** `uf` of a request, when sent, compared with the caller's unit (case and spaces aside). */
export function isCallerUnit(uf: string | null | undefined, callerUnit: string): boolean {
  return uf === undefined || uf === null || uf.trim().toUpperCase() === callerUnit;
}

/** What the liveness check of a verification saw. */
export const livenessSchema = z.object({
  checked: z.boolean(),
  passed: z.boolean().nullable(),
  /** The take's checks: one face, one continuous take, the movements asked, with depth. */
  checks: z
    .object({
      sameFace: z.boolean(),
      continuous: z.boolean(),
      followed: z.boolean(),
      depth: z.boolean(),
    })
    .nullable(),
  note: z.string(),
});

export const verifyResponseSchema = z.object({
  verificationId: z.string(),
  cpf: z.string(),
  /** The decision: the face matches the template and the burst looked live. */
  verified: z.boolean(),
  message: z.string(),
  /** How alike the capture is to the enrolment, in plain words (every role, once compared). */
  similarityLevel: similarityLevelSchema.optional(),
  /** The match and the liveness checks: FACE_JUDGE_ROLES only. */
  match: z.boolean().optional(),
  /** The raw numbers: FACE_SCORE_ROLES (ADMIN) only. */
  distance: z.number().optional(),
  similarity: z.number().optional(),
  threshold: z.number().optional(),
  liveness: livenessSchema.optional(),
});
export type VerifyResponse = z.infer<typeof verifyResponseSchema>;

export const enrolResponseSchema = z.object({
  cpf: z.string(),
  captures: z.number().int(),
  enrolledAt: z.string(),
});
export type EnrolResponse = z.infer<typeof enrolResponseSchema>;

const PICTURE_REQUIRED = 'Envie a imagem capturada.';

/** Base64 of a picture, with or without its data-URL prefix, up to `maxChars`. */
function pictureSchema(maxChars: number) {
  return z
    .string()
    .min(16, PICTURE_REQUIRED)
    .max(
      maxChars,
      `A imagem é grande demais (máximo de ${Math.floor((maxChars * 3) / 4 / 1024)} KB).`,
    );
}
const captureSchema = pictureSchema(FACE_CAPTURE_MAX_CHARS);
/** The person's CPF, formatted or not (the server strips it). */
export const faceCpfSchema = z.string().trim().min(11).max(14);
/** The caller's unit; another one is refused (403 FACE_UNIT_MISMATCH), absent means the caller's. */
const ufSchema = z.string().max(4).optional();
const localSchema = z.string().max(80).nullable().optional();

/**
 * `POST api/BiopassID/Create`: a take answering an enrolment challenge
 * (face-challenge.ts): `image` is its first picture, `frames` the others in
 * order. A photo taken elsewhere cannot enrol anyone: the person takes part live.
 */
export const enrolRequestSchema = z.object({
  cpf: faceCpfSchema,
  challengeId: challengeIdSchema.optional(),
  image: captureSchema,
  frames: z.array(captureSchema).max(FACE_BURST_MAX_FRAMES).optional(),
  uf: ufSchema,
  local: localSchema,
});
export type EnrolRequest = z.input<typeof enrolRequestSchema>;

/**
 * `POST api/BiopassID/Verify`: `image` is the verified picture and the first
 * frame of the burst, `frames` the other frames in capture order (never
 * `image` again).
 */
export const verifyRequestSchema = z.object({
  cpf: faceCpfSchema,
  /** The challenge the take answers (face-challenge.ts); without it the take is refused. */
  challengeId: challengeIdSchema.optional(),
  image: captureSchema,
  frames: z.array(captureSchema).max(FACE_BURST_MAX_FRAMES).optional(),
  uf: ufSchema,
  local: localSchema,
  deviceId: deviceIdSchema.nullable().optional(),
});
export type VerifyRequest = z.input<typeof verifyRequestSchema>;

/** `GET api/BiopassID/{cpf}`: the enrolment, with short-lived addresses of its captures. */
export const enrolmentSchema = z.object({
  cpf: z.string(),
  enrolledAt: z.string(),
  captures: z.array(z.object({ url: z.string() })),
});
export type Enrolment = z.infer<typeof enrolmentSchema>;
