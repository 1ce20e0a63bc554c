/**
 * The second factor of a password sign-in: an authenticator app's code
 * (TOTP, RFC 6238) or a passkey (WebAuthn), with single-use recovery codes.
 * Which roles must have one is a server setting (MFA_REQUIRED_ROLES). A
 * right password of an account with a factor does not open a session: the
 * answer is `multi-factor-auth-required` carrying a sign-in ticket; an account
 * whose role requires a factor and has none gets
 * `multi-factor-enrolment-required` with a ticket that only enrols.
 */
import { z } from 'zod';
import { authUserSchema } from './auth';
import { errorCatalogue } from './errors';

export const SECOND_FACTOR_KINDS = ['totp', 'passkey'] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];

/** How a pending sign-in can be finished: the account's factors, and its recovery codes. */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

export const SECOND_FACTOR_LABELS: Record<SecondFactorKind, string> = {
  totp: 'Aplicativo autenticador',
  passkey: 'Chave de acesso (passkey)',
};

/** Digits of an authenticator code, and how many recovery codes a set holds. */
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
/** How long the step after the password lasts (a new sign-in starts over). */
export const MFA_TICKET_TTL_MS = 10 * 60_000;

/** The pending sign-in, in the body of a `multi-factor-*-required` answer (field `mfa`). */
export const mfaChallengeSchema = z.object({
  ticket: z.string().min(20),
  /** True: the role requires a factor the account does not have; only enrolment finishes it. */
  enrolment: z.boolean(),
  /** What can finish a sign-in (empty on an enrolment ticket). */
  methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  expiresAt: z.string(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

const ticketField = z.string().trim().min(20).max(200);
const codeField = z.string().trim().min(1, 'Informe o código.').max(40, 'O código é longo demais.');
const labelField = z
  .string()
  .trim()
  .max(60, 'O nome do dispositivo tem no máximo 60 caracteres.')
  .optional();
/** A WebAuthn answer as the browser gives it (`@simplewebauthn/browser`), checked by the server. */
const credentialField = z.record(z.string(), z.unknown());

/** `POST api/Auth/mfa/verify`: the code of the app or a recovery code. */
export const mfaVerifyInputSchema = z.object({
  ticket: ticketField,
  method: z.enum(['totp', 'recovery']),
  code: codeField,
});

/** `POST api/Auth/mfa/passkey/options` and the enrolment's options: only the ticket. */
export const mfaTicketInputSchema = z.object({ ticket: ticketField });

export const mfaPasskeyInputSchema = z.object({ ticket: ticketField, credential: credentialField });

/** A new factor: the first code of the app (after its set-up), or the passkey just made. */
export const factorConfirmationSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), code: codeField, label: labelField }),
  z.object({ method: z.literal('passkey'), credential: credentialField, label: labelField }),
]);
export type FactorConfirmation = z.infer<typeof factorConfirmationSchema>;

/** `POST api/Auth/mfa/enrol`: the same confirmation, with the enrolment ticket. */
export const mfaEnrolInputSchema = z.intersection(
  z.object({ ticket: ticketField }),
  factorConfirmationSchema,
);

/** The set-up of an authenticator app: the secret (base32) and its `otpauth://` address for the QR code. */
export const totpSetupSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

export const secondFactorSchema = z.object({
  id: z.string(),
  kind: z.enum(SECOND_FACTOR_KINDS),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type SecondFactor = z.infer<typeof secondFactorSchema>;

/** `GET api/Auth/factors`: the account's factors and whether its role requires one. */
export const secondFactorStatusSchema = z.object({
  factors: z.array(secondFactorSchema),
  recoveryCodesLeft: z.number().int(),
  required: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;

/** Recovery codes are shown once, when made; only their hashes are kept. */
export const recoveryCodesSchema = z.object({ codes: z.array(z.string()) });

/** A factor added: it, and the recovery codes when it was the account's first. */
export const factorAddedSchema = z.object({
  factor: secondFactorSchema,
  recoveryCodes: z.array(z.string()).optional(),
});

/** The session a finished enrolment opens, with the new recovery codes to write down. */
export const enrolledSignInSchema = authUserSchema.extend({
  recoveryCodes: z.array(z.string()).optional(),
});

export const SECOND_FACTOR_ERRORS = errorCatalogue({
  /** The spec's identity-provider code: the password was right, the second step is missing. */
  'multi-factor-auth-required': {
    status: 401,
    message:
      'Confirme o segundo fator (aplicativo autenticador, chave de acesso ou código de recuperação) para entrar.',
  },
  'multi-factor-enrolment-required': {
    status: 401,
    message:
      'O seu perfil exige a verificação em duas etapas. Cadastre um aplicativo autenticador ou uma chave de acesso para entrar.',
  },
  'mfa-invalid-code': {
    status: 400,
    message: 'Código incorreto ou já usado. Confira o código e tente novamente.',
  },
  /** A ticket unknown, expired, or spent by too many wrong codes: the sign-in starts over. */
  'mfa-ticket-invalid': {
    status: 401,
    message: 'A verificação expirou ou foi interrompida. Entre novamente com e-mail e senha.',
  },
  'passkey-failed': {
    status: 400,
    message: 'A chave de acesso não foi confirmada. Tente novamente ou use outro método.',
  },
  /** A confirmation without the set-up (or options) asked just before. */
  'mfa-setup-missing': {
    status: 409,
    message: 'A configuração expirou. Comece o cadastro do segundo fator de novo.',
  },
  'mfa-last-factor': {
    status: 409,
    message:
      'O seu perfil exige a verificação em duas etapas: cadastre outro fator antes de remover o último.',
  },
  'mfa-no-factor': {
    status: 409,
    message: 'Cadastre um segundo fator antes de gerar códigos de recuperação.',
  },
  'factor-not-found': { status: 404, message: 'Segundo fator não encontrado.' },
  'mfa-reset-self': {
    status: 409,
    message: 'Os seus próprios fatores são trocados em "Segurança da conta".',
  },
  'mfa-nothing-to-reset': {
    status: 409,
    message: 'Este usuário não tem segundo fator cadastrado: ele já entra só com a senha.',
  },
});
