/**
 * Certificates of finished exams (spec 2 `/finished-exam-view`,
 * `/certificate`, `/certificate/:schedulingId`; spec 5 the missing room
 * local). A certificate states what the exam was when it was issued and
 * carries a verification code that anyone may check on the public page,
 * which shows only what a third party may see (LGPD: the CPF masked, no
 * RENACH, no staff names). It is revoked when the exam is later disqualified
 * or its decision reopened.
 */
import { z } from 'zod';
import { errorCatalogue } from './errors';

/** Spec 5: a certificate whose room local is missing says so. */
export const MISSING_ROOM_LOCAL_MESSAGE =
  'O local da sala não foi informado. Verifique se o certificado foi gerado corretamente.';

/** Spec 2: the title of the federal-district variant. */
export const CERTIFICATE_DF_TITLE = 'Certificados';

export const CERTIFICATE_ERRORS = errorCatalogue({
  CERTIFICATE_EXAM_NOT_FOUND: { status: 404, message: 'Exame não encontrado na unidade.' },
  CERTIFICATE_NOT_FINAL: {
    status: 409,
    message:
      'O certificado só é emitido para um exame finalizado com o resultado liberado (aprovado ou reprovado).',
  },
  CERTIFICATE_NOT_FOUND: {
    status: 404,
    message: 'Certificado não encontrado. Confira o código digitado.',
  },
  CERTIFICATE_NOT_CUSTODIAN: {
    status: 403,
    message:
      'Só o administrador ou um examinador que estava na sala durante o exame pode emitir ou abrir este certificado.',
  },
});
export type CertificateErrorCode = keyof typeof CERTIFICATE_ERRORS;

/**
 * Crockford base32 without I, L, O and U: 16 characters (80 bits) shown in
 * four groups (`7KQ2-9XHM-D4TB-W1RZ`). Typing is forgiving: lower case,
 * spaces and dashes, and O/I/L for 0/1.
 */
export const CERTIFICATE_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CERTIFICATE_CODE_LENGTH = 16;

export function normalizeCertificateCode(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

export function formatCertificateCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

export const certificateCodeSchema = z
  .string({ error: 'Informe o código do certificado.' })
  .trim()
  .max(40, 'Código de certificado inválido.')
  .transform(normalizeCertificateCode)
  .refine(
    (code) =>
      code.length === CERTIFICATE_CODE_LENGTH &&
      [...code].every((char) => CERTIFICATE_CODE_ALPHABET.includes(char)),
    'O código tem 16 letras e números, como 7KQ2-9XHM-D4TB-W1RZ.',
  );

export const CERTIFICATE_RESULTS = ['approved', 'reproved'] as const;
export const CERTIFICATE_REVOKE_REASONS = ['disqualified', 'reopened'] as const;
export const CERTIFICATE_REVOKE_LABELS: Readonly<
  Record<(typeof CERTIFICATE_REVOKE_REASONS)[number], string>
> = {
  disqualified: 'o exame foi desclassificado pela auditoria',
  reopened: 'a decisão da auditoria foi reaberta',
};

/** What a certificate states, written once at issue. */
export const certificateContentSchema = z.object({
  schedulingId: z.string(),
  candidateName: z.string(),
  /** Masked. */
  candidateCpf: z.string(),
  candidateRenach: z.string().nullable(),
  federativeUnit: z.string(),
  unitName: z.string(),
  postName: z.string().nullable(),
  /** The room's post and name; null when the exam named none (spec 5). */
  roomLocal: z.string().nullable(),
  room: z.string().nullable(),
  station: z.string().nullable(),
  examDate: z.string(),
  result: z.enum(CERTIFICATE_RESULTS),
  score: z.number().nullable(),
  /** The examiners of the room's check-in while the exam ran. */
  examiners: z.array(z.string()),
  /** The auditor of the decision (and who confirmed it), when an audit decided. */
  auditor: z.string().nullable(),
});
export type CertificateContent = z.infer<typeof certificateContentSchema>;

const statusFields = {
  /** Formatted code (`7KQ2-9XHM-D4TB-W1RZ`). */
  code: z.string(),
  status: z.enum(['valid', 'revoked']),
  issuedAt: z.string(),
  revokedAt: z.string().nullable(),
  revokedReason: z.enum(CERTIFICATE_REVOKE_REASONS).nullable(),
  /** The public check's address (the QR code points at it). */
  verifyUrl: z.string(),
};

/** The whole certificate, for the unit's users and the integration. */
export const certificateSchema = z.object({
  id: z.string(),
  ...statusFields,
  content: certificateContentSchema,
  /** The QR code of `verifyUrl`, as a PNG data URL. */
  qrDataUrl: z.string(),
});
export type Certificate = z.infer<typeof certificateSchema>;

/** `GET api/Certificate/verify/{code}`: what anyone holding the code may see. */
export const certificateCheckSchema = z.object({
  ...statusFields,
  content: certificateContentSchema.pick({
    schedulingId: true,
    candidateName: true,
    candidateCpf: true,
    federativeUnit: true,
    unitName: true,
    postName: true,
    roomLocal: true,
    examDate: true,
    result: true,
  }),
});
export type CertificateCheck = z.infer<typeof certificateCheckSchema>;

export const certificateVerifyQuerySchema = z.object({
  /** The federal-district variant checks that the code belongs to this scheduling. */
  schedulingId: z.string().trim().max(64).optional(),
});
