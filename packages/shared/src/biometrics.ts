/** Face verification answers shared by the BiopassID API and the capture screens (spec 3, 5, 8). */
import { z } from 'zod';

/** Spec 5: face validation runs only for the Federal District. */
export const FACE_VALIDATION_UNIT = 'DF';
export const FACE_VALIDATION_ONLY_DF =
  'A validação facial está disponível apenas para o Distrito Federal';
export const FACE_VALIDATION_SUCCESS = 'Sua validação biométrica foi concluída.';

export const verifyResponseSchema = z.object({
  verificationId: z.string(),
  cpf: z.string(),
  /** The face matches the enrolled template. */
  match: z.boolean(),
  /** The decision: a match, and the burst (when sent) looked live. */
  verified: z.boolean(),
  distance: z.number(),
  similarity: z.number(),
  threshold: z.number(),
  liveness: z.object({
    checked: z.boolean(),
    passed: z.boolean().nullable(),
    checks: z
      .object({ sameFace: z.boolean(), naturalMotion: z.boolean(), notIdentical: z.boolean() })
      .nullable(),
    note: z.string(),
  }),
  message: z.string(),
});
export type VerifyResponse = z.infer<typeof verifyResponseSchema>;

export const enrolResponseSchema = z.object({
  cpf: z.string(),
  captures: z.number().int(),
  enrolledAt: z.string(),
});
export type EnrolResponse = z.infer<typeof enrolResponseSchema>;
