/**
 * A unit's identity providers (OpenID Connect) for single sign-on: what an
 * ADMIN configures, and what the sign-in screen lists. Roles stay in this
 * product; a provider only proves who the person is.
 */
import { z } from 'zod';
import { errorCatalogue } from './errors';

/** Where providers send the browser back (to register at the provider). */
export const SSO_CALLBACK_PATH = '/api/Auth/sso/callback';
/** The web page that completes a sign-in the provider approved. */
export const SSO_RETURN_PAGE = '/login/sso';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CLAIM = /^[A-Za-z0-9_.:-]{1,64}$/;

export const identityProviderInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(2, 'Informe o nome que aparece no botão de entrada (2 a 60 caracteres).')
    .max(60, 'Informe o nome que aparece no botão de entrada (2 a 60 caracteres).'),
  issuer: z
    .string()
    .trim()
    .max(500, 'O endereço do emissor é longo demais.')
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      message: 'Informe o endereço do emissor (issuer), começando com https://.',
    }),
  clientId: z
    .string()
    .trim()
    .min(1, 'Informe o client id.')
    .max(255, 'O client id é longo demais.'),
  /** On a change, absent keeps the stored secret; an empty string removes it (public client). */
  clientSecret: z.string().max(1000, 'O client secret é longo demais.').optional(),
  allowedDomains: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(DOMAIN, 'Domínio inválido: use a forma exemplo.gov.br, sem @ e sem endereço.'),
    )
    .max(50, 'No máximo 50 domínios.')
    .default([]),
  cpfClaim: z
    .string()
    .trim()
    .regex(CLAIM, 'Nome de atributo (claim) inválido.')
    .nullable()
    .default(null),
  enabled: z.boolean().default(true),
});
export type IdentityProviderInput = z.input<typeof identityProviderInputSchema>;

export const identityProviderSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  allowedDomains: z.array(z.string()),
  cpfClaim: z.string().nullable(),
  enabled: z.boolean(),
  /** The redirect address to register at the provider. */
  redirectUri: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type IdentityProvider = z.infer<typeof identityProviderSchema>;

/** What the sign-in screen shows of a unit's enabled providers. */
export const signInProviderSchema = z.object({ id: z.string().uuid(), name: z.string() });
export type SignInProvider = z.infer<typeof signInProviderSchema>;

/**
 * Errors of single sign-on. The identity provider's codes keep its spelling
 * (`unauthorized-domain`); the web shows these texts for them.
 */
export const SSO_ERRORS = errorCatalogue({
  'unauthorized-domain': {
    status: 403,
    message:
      'O e-mail da sua conta no provedor de identidade não pertence a um domínio autorizado para esta unidade.',
  },
  'sso-unknown-user': {
    status: 403,
    message:
      'Sua conta no provedor de identidade não corresponde a nenhum usuário desta unidade. Peça ao administrador da unidade o seu cadastro.',
  },
  'sso-failed': {
    status: 400,
    message:
      'Não foi possível confirmar a sua entrada pelo provedor de identidade. Tente novamente.',
  },
  'sso-expired': {
    status: 400,
    message: 'Esta entrada pelo provedor de identidade expirou ou já foi usada. Tente novamente.',
  },
  'sso-cancelled': {
    status: 400,
    message: 'A entrada pelo provedor de identidade foi cancelada.',
  },
  'sso-provider-unavailable': {
    status: 502,
    message:
      'O provedor de identidade não respondeu ou está mal configurado. Entre com e-mail e senha ou tente mais tarde.',
  },
  IDP_NOT_FOUND: { status: 404, message: 'Provedor de identidade não encontrado.' },
  IDP_ISSUER_INSECURE: {
    status: 400,
    message: 'O endereço do emissor precisa usar https://.',
  },
  /** Outside development: the issuer is this machine, or a link-local address (cloud metadata). */
  IDP_ISSUER_FORBIDDEN: {
    status: 400,
    message:
      'O endereço do emissor aponta para a própria máquina ou para um endereço interno reservado (loopback ou link-local). Informe o endereço público ou da rede do provedor.',
  },
  IDP_DISCOVERY_FAILED: {
    status: 400,
    message:
      'Não foi possível ler a configuração do provedor (/.well-known/openid-configuration) neste emissor. Confira o endereço e o client id.',
  },
});
export type SsoErrorCode = keyof typeof SSO_ERRORS;
