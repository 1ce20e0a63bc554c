/**
 * The demonstration flows (spec 2, 6: admin-guarded `/demo-register/`,
 * `/demo-register2/`, `/demo-biometry/:cpf`, `/demo-finished/` and the demo
 * finished biometry screen): an ADMIN of the DEMO unit registers a
 * demonstration candidate (their data, with CPF validation), records their
 * contact and the explicit consent to the processing of biometric data that
 * LGPD Art. 11 asks for (the time and the version of the text shown), enrols
 * their face and verifies a second capture against the enrolment, seeing the
 * score and what the liveness check saw. Demo data lives in the DEMO unit
 * only, and its ADMIN can wipe it.
 */
import { z } from 'zod';
import { enrolRequestSchema, livenessSchema, verifyRequestSchema } from './biometrics';
import { cpfSchema } from './cpf';
import { errorCatalogue } from './errors';

export const DEMO_UNIT = 'DEMO';

/** The version of the consent text below; a new text gets a new version. */
export const BIOMETRIC_CONSENT_VERSION = '2026-11-v1';
export const BIOMETRIC_CONSENT_TEXT =
  'Autorizo, de forma livre, informada e inequívoca, o tratamento dos meus dados biométricos ' +
  '(imagem do rosto e o modelo matemático calculado a partir dela) para a finalidade específica ' +
  'de demonstrar a verificação de identidade do exame teórico, nos termos do art. 11, inciso I, ' +
  'da Lei Geral de Proteção de Dados (Lei nº 13.709/2018). Sei que posso revogar este ' +
  'consentimento a qualquer momento, e que os dados desta demonstração são apagados quando o ' +
  'administrador limpa os dados de demonstração.';

export const DEMO_ERRORS = errorCatalogue({
  DEMO_UNIT_ONLY: {
    status: 403,
    message: 'Os fluxos de demonstração existem só na unidade DEMO.',
  },
  DEMO_CANDIDATE_NOT_FOUND: {
    status: 404,
    message: 'Candidato de demonstração não encontrado. Comece pelo cadastro de demonstração.',
  },
  DEMO_CONSENT_REQUIRED: {
    status: 409,
    message:
      'O candidato ainda não deu o consentimento para o tratamento dos dados biométricos (LGPD, art. 11).',
  },
  DEMO_CONSENT_OUTDATED: {
    status: 409,
    message:
      'O texto do consentimento mudou: mostre a versão atual ao candidato e registre de novo.',
  },
  DEMO_NOT_ENROLLED: {
    status: 409,
    message: 'O rosto do candidato ainda não foi cadastrado. Faça o cadastro facial primeiro.',
  },
});
export type DemoErrorCode = keyof typeof DEMO_ERRORS;

const today = () => new Date().toISOString().slice(0, 10);

/** `/demo-register/`: the candidate's data. */
export const demoCandidateInputSchema = z.object({
  name: z
    .string({ error: 'Informe o nome do candidato.' })
    .trim()
    .min(3, 'Informe o nome completo do candidato.')
    .max(120, 'Use no máximo 120 caracteres no nome.'),
  cpf: cpfSchema,
  birthDate: z
    .string({ error: 'Informe a data de nascimento.' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Informe a data de nascimento.')
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'Data inválida.')
    .refine((value) => {
      const [year = 0, month = 1, day = 1] = value.split('-').map(Number);
      const adult = new Date(Date.UTC(year + 18, month - 1, day)).toISOString().slice(0, 10);
      return adult <= today();
    }, 'O candidato precisa ter ao menos 18 anos.'),
});
export type DemoCandidateInput = z.input<typeof demoCandidateInputSchema>;

const PHONE = /^\(?\d{2}\)?\s?9?\d{4}-?\d{4}$/;

/** `/demo-register2/`: contact details and the explicit biometric consent. */
export const demoContactInputSchema = z.object({
  email: z
    .string({ error: 'Informe o e-mail do candidato.' })
    .trim()
    .toLowerCase()
    .pipe(z.email('Informe um e-mail válido.')),
  phone: z
    .string({ error: 'Informe o telefone do candidato.' })
    .trim()
    .regex(PHONE, 'Informe o telefone com DDD, ex.: (61) 99999-1234.')
    .transform((value) => value.replace(/\D/g, '')),
  consent: z.literal(true, {
    error: 'O consentimento explícito é necessário para o tratamento dos dados biométricos.',
  }),
  consentVersion: z.string().trim().min(1).max(40),
});
export type DemoContactInput = z.input<typeof demoContactInputSchema>;

export const demoVerificationSchema = z.object({
  verified: z.boolean(),
  match: z.boolean(),
  distance: z.number(),
  similarity: z.number(),
  threshold: z.number(),
  liveness: livenessSchema,
  message: z.string(),
  at: z.string(),
});
export type DemoVerification = z.infer<typeof demoVerificationSchema>;

export const demoCandidateSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Masked except for the ADMIN who runs the demo (whole, to type it again). */
  cpf: z.string(),
  birthDate: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  consent: z.object({ at: z.string(), version: z.string(), current: z.boolean() }).nullable(),
  enrolled: z.boolean(),
  lastVerification: demoVerificationSchema.nullable(),
  createdAt: z.string(),
});
export type DemoCandidate = z.infer<typeof demoCandidateSchema>;

export const demoWipeResultSchema = z.object({
  candidates: z.number().int(),
  enrolments: z.number().int(),
});
export type DemoWipeResult = z.infer<typeof demoWipeResultSchema>;

/**
 * `POST api/Demo/candidates/{cpf}/enrol`: the take of `api/BiopassID/Create`
 * (the challenge and its pictures), the CPF in the path.
 */
export const demoEnrolRequestSchema = enrolRequestSchema.omit({
  cpf: true,
  uf: true,
  local: true,
});
export type DemoEnrolRequest = z.input<typeof demoEnrolRequestSchema>;

/**
 * `POST api/Demo/candidates/{cpf}/verify`: the take of `api/BiopassID/Verify`
 * (the challenge, `image`, then the other `frames`), the CPF in the path.
 */
export const demoVerifyRequestSchema = verifyRequestSchema.omit({
  cpf: true,
  uf: true,
  local: true,
});
export type DemoVerifyRequest = z.input<typeof demoVerifyRequestSchema>;
