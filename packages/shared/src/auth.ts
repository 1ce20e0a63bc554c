/** The signed-in user as `POST api/Auth` returns it and the web app keeps it (spec 3, 7). */
import { z } from 'zod';
import { errorCatalogue } from './errors';
import { userSchema } from './users';

/** How long a sign-in or a re-authentication counts as a recent proof for sensitive actions (the default of REAUTH_WINDOW_SECONDS). */
export const REAUTH_WINDOW_MS = 5 * 60_000;

export const authUserSchema = userSchema
  .pick({
    name: true,
    email: true,
    cpf: true,
    federativeUnit: true,
    roleDescription: true,
    registerStatus: true,
  })
  .extend({
    token: z.string().min(1),
    expiresAt: z.string(),
    /** After a sign-in through an identity provider that has one: its end-session address. */
    providerLogoutUrl: z.string().optional(),
  });
export type AuthUser = z.infer<typeof authUserSchema>;

/**
 * Errors of sign-in, sessions and password links. The codes of the identity
 * provider keep its spelling (spec 8); the web shows these texts for them.
 */
export const AUTH_ERRORS = errorCatalogue({
  'invalid-credentials': { status: 401, message: 'E-mail ou senha incorretos.' },
  /**
   * A disabled account, said only to who proved it is theirs: after the right
   * password at sign-in, or with a valid password link. Anyone else hears
   * `invalid-credentials` or `LINK_INVALID`, so nothing is enumerated.
   */
  'user-disabled': {
    status: 403,
    message:
      'Esta conta está desativada. Para voltar a usá-la, peça ao administrador da sua unidade que a reative.',
  },
  'login-blocked': {
    status: 429,
    message: 'Muitas tentativas de login. Aguarde alguns minutos e tente novamente.',
  },
  'password-does-not-meet-requirements': {
    status: 400,
    message: 'A senha não atende aos requisitos da política de senhas.',
  },
  /** A sensitive action asked of a session whose last proof is older than REAUTH_WINDOW_MS. */
  'reauth-required': {
    status: 403,
    message: 'Por segurança, confirme a sua senha para continuar.',
  },
  /** A re-authentication answered with another account's right credentials. */
  'user-mismatch': {
    status: 403,
    message: 'As credenciais informadas não pertencem ao usuário atual.',
  },
  /** A wrong password at re-authentication: not 401, the session itself is fine. */
  'reauth-invalid-credentials': { status: 400, message: 'E-mail ou senha incorretos.' },
  /** A wrong app or recovery code at re-authentication. */
  'reauth-invalid-code': {
    status: 400,
    message: 'Código incorreto ou já usado. Confira o código e tente novamente.',
  },
  LINK_INVALID: {
    status: 400,
    message: 'Este link é inválido ou expirou. Solicite um novo link.',
  },
  OPERATOR_ONLY: {
    status: 401,
    message: 'Disponível apenas para os comandos do operador, na própria máquina do servidor.',
  },
  API_KEY_INVALID: { status: 401, message: 'Chave de integração ausente, inválida ou revogada.' },
  /** GET /metrics without METRICS_TOKEN (nor the operator's token over loopback). */
  METRICS_TOKEN_REQUIRED: {
    status: 401,
    message: 'As métricas exigem o token de métricas (METRICS_TOKEN) ou o token do operador.',
  },
});
