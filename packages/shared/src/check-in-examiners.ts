/**
 * Who may be an examiner of a room and how they prove it: what the unit
 * requires (`getConfig`, the unit's own setting), the factors besides the
 * face, examiner 2's password check and the face verification of an
 * examiner (`api/Auth/biometric-viewer-checkin`).
 */
import { z } from 'zod';
import {
  deviceIdSchema,
  FACE_BURST_MAX_FRAMES,
  FACE_CAPTURE_MAX_CHARS,
  similarityLevelSchema,
} from './biometrics';
import { cpfSchema } from './cpf';
import { challengeIdSchema } from './face-challenge';
import { ROLES } from './roles';
import { CHECK_IN_TEXTS } from './check-ins';

/* ------------------------------------------------------------------------ */
/* Configuration of the unit: `GET getConfig?federativeUnit`                  */
/* ------------------------------------------------------------------------ */

export const checkInConfigSchema = z.object({
  federativeUnit: z.string(),
  /** Face validation at check-in and check-out (spec 5: only DF). */
  faceValidationRequired: z.boolean(),
  secondExaminerAllowed: z.boolean(),
  maxViewers: z.number().int(),
  proctoringEnabled: z.boolean(),
  /**
   * The unit lets an examiner who is not signed in enter by face alone,
   * without typing their password (off by default; such an entry says so).
   */
  faceAloneAllowed: z.boolean(),
});
export type CheckInConfig = z.infer<typeof checkInConfigSchema>;

/* ------------------------------------------------------------------------ */
/* The unit's own setting: `GET|PUT api/FederativeUnit/settings` (ADMIN)      */
/* ------------------------------------------------------------------------ */

export const unitSettingsSchema = z.object({
  federativeUnit: z.string(),
  faceAloneAllowed: z.boolean(),
});
export type UnitSettings = z.infer<typeof unitSettingsSchema>;

/** The unit is the ADMIN's own (from the session), never named in the body. */
export const unitSettingsUpdateSchema = z.object({ faceAloneAllowed: z.boolean() });
export type UnitSettingsUpdate = z.infer<typeof unitSettingsUpdateSchema>;

/* ------------------------------------------------------------------------ */
/* How an examiner proved who they are besides the face                      */
/* ------------------------------------------------------------------------ */

/**
 * The person's own factor that came with a face check: their signed-in
 * session, their password typed in the capture flow, or examiner 2's
 * password confirmed by `api/Auth/viewer-checkin` (`proctoringToken`).
 */
export const OWN_FACTORS = ['session', 'password', 'proctoring'] as const;
export type OwnFactor = (typeof OWN_FACTORS)[number];

/** How an examiner was admitted into a room's custody: a factor, or the face alone where the unit allows it. */
export const ADMITTED_BY = [...OWN_FACTORS, 'face_only'] as const;
export type AdmittedBy = (typeof ADMITTED_BY)[number];
export const ADMITTED_BY_LABELS: Readonly<Record<AdmittedBy, string>> = {
  session: 'Confirmado pela própria sessão',
  password: 'Confirmado por senha',
  proctoring: 'Confirmado por senha (examinador 2)',
  face_only: 'Admitido só pelo rosto (sem senha)',
};

/* ------------------------------------------------------------------------ */
/* Examiner 2 and the face verification of an examiner                       */
/* ------------------------------------------------------------------------ */

/**
 * `POST api/Auth/viewer-checkin`: examiner 2's e-mail and password, checked
 * without a session, for one admission: opening a room at the post
 * `schedulingLocal`, or joining (or receiving by transfer) the open record
 * `checkInId`. The confirmation is used once, there only.
 */
export const viewerCheckinRequestSchema = z
  .object({
    email: z.string().trim().min(1, 'Informe o e-mail.').max(254),
    password: z.string().min(1, 'Informe a senha.').max(4096),
    /** Examiner 1's CPF when it is not the signed-in user's (the `cpfViewer` of spec 5). */
    firstViewerCpf: cpfSchema.optional(),
    /** The post where the room opens (or, with `checkInId`, the record's post). */
    schedulingLocal: z.string().trim().min(1).max(80).optional(),
    /** The open record examiner 2 joins or receives (update-checkIn, transfer). */
    checkInId: z.uuid('Registro de entrada inválido.').optional(),
  })
  .refine((body) => body.schedulingLocal !== undefined || body.checkInId !== undefined, {
    message: CHECK_IN_TEXTS.missingLocal,
    path: ['schedulingLocal'],
  });
export type ViewerCheckinRequest = z.input<typeof viewerCheckinRequestSchema>;

/** Examiner 2 as the web keeps it (`userProctoring`), and the proof of the password check. */
export const proctoringUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  cpf: z.string(),
  federativeUnit: z.string(),
  roleDescription: z.enum(ROLES),
});
export type ProctoringUser = z.infer<typeof proctoringUserSchema>;

export const viewerCheckinResponseSchema = z.object({
  user: proctoringUserSchema,
  /**
   * Names examiner 2 in the admission that follows: given to the signed-in
   * examiner 1, used once, at the post (and record) it was asked for.
   */
  proctoringToken: z.string(),
  expiresAt: z.string(),
});
export type ViewerCheckinResponse = z.infer<typeof viewerCheckinResponseSchema>;

const capture = z
  .string()
  .min(16, 'Envie a imagem capturada.')
  .max(FACE_CAPTURE_MAX_CHARS, 'A imagem é grande demais.');

/** `POST api/Auth/biometric-viewer-checkin` (spec 3 biometric request, with the burst of the capture). */
export const biometricViewerCheckinRequestSchema = z
  .object({
    /** The examiner's CPF; at check-out, `checkInViewerId` may name them instead. */
    cpf: cpfSchema.optional(),
    /** An examiner of an open record the caller is in (check-out on any device). */
    checkInViewerId: z.uuid('Examinador inválido.').optional(),
    /** Examiner 2, named by the proof of `api/Auth/viewer-checkin`. */
    proctoringToken: z.string().max(1000).optional(),
    /**
     * The examiner's own password, typed in the capture flow when they are
     * neither the signed-in user nor named by `proctoringToken` (the separate
     * viewer identity): checked as a sign-in is, before the face.
     */
    password: z.string().max(4096).optional(),
    /** The challenge the take answers (face-challenge.ts); without it the take is refused. */
    challengeId: challengeIdSchema.optional(),
    image: capture,
    frames: z.array(capture).max(FACE_BURST_MAX_FRAMES).optional(),
    uf: z.string().max(4).optional(),
    local: z.string().trim().max(80).nullable().optional(),
    deviceId: deviceIdSchema.nullable().optional(),
  })
  .refine(
    (body) =>
      body.cpf !== undefined ||
      body.checkInViewerId !== undefined ||
      body.proctoringToken !== undefined,
    {
      message: 'Informe o CPF do examinador.',
      path: ['cpf'],
    },
  );
export type BiometricViewerCheckinRequest = z.input<typeof biometricViewerCheckinRequestSchema>;

/** Spec 7: the response is read for name, cpf, faceUrl and currentDate. */
export const biometricViewerCheckinResponseSchema = z.object({
  verificationId: z.string(),
  name: z.string(),
  /** Masked (`***.456.789-**`). */
  cpf: z.string(),
  /** Signed, expiring address of the capture. */
  faceUrl: z.string(),
  currentDate: z.string(),
  /**
   * How alike the capture is to the enrolment, in plain words; examiners
   * (the only ones who check in) never get the raw numbers.
   */
  similarityLevel: similarityLevelSchema,
});
export type BiometricViewerCheckinResponse = z.infer<typeof biometricViewerCheckinResponseSchema>;
