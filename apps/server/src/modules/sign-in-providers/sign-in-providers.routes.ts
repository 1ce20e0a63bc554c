/**
 * A unit's identity providers: the ADMIN's configuration
 * (`api/IdentityProvider`) and the sign-in through them (`api/Auth/sso/...`).
 * The callback answers with a redirect to the web app, never with a token.
 */
import {
  authUserSchema,
  errorBodySchema,
  identityProviderInputSchema,
  identityProviderSchema,
  ROLES,
  signInProviderSchema,
  SSO_CALLBACK_PATH,
} from '@exame/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { readCookie, setCookie } from '../../lib/cookies';
import { currentUser } from '../../lib/current-user';
import {
  addProvider,
  changeProvider,
  listSignInProviders,
  listUnitProviders,
  removeProvider,
  type SignInProvidersDeps,
} from './sign-in-providers.service';
import {
  completeSsoSignIn,
  finishSsoSignIn,
  reauthenticateWithSso,
  returnAddress,
  startSsoSignIn,
} from './sso.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
  502: errorBodySchema,
};
const tags = ['auth'];
/**
 * Ties a sign-in to the browser that started it: set at the start, sent back
 * on the provider's return (SameSite=Lax: a top-level arrival from the
 * provider) and at the hand-off exchange, cleared then.
 */
const BROWSER_COOKIE = 'exame_sso';
const COOKIE_PATH = '/api/Auth/sso';
const COOKIE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function browserToken(request: FastifyRequest): string | null {
  const value = readCookie(request, BROWSER_COOKIE);
  return value && COOKIE_TOKEN.test(value) ? value : null;
}

/**
 * The start and the return are pages the browser navigates to: every failure
 * goes back to the sign-in screen with a stable code (an unexpected one is
 * logged), never a JSON body.
 */
function failureCode(request: FastifyRequest, error: unknown): string {
  if (error instanceof AppError) return error.status === 429 ? 'login-blocked' : error.code;
  request.log.error({ err: error }, 'falha inesperada na entrada pelo provedor de identidade');
  return 'sso-failed';
}
const idParams = z.object({ id: z.string().uuid() });

/** The sign-in's cookie has done its work once the hand-off is exchanged. */
function clearBrowserCookie(reply: FastifyReply, deps: SignInProvidersDeps) {
  setCookie(reply, {
    name: BROWSER_COOKIE,
    value: '',
    path: COOKIE_PATH,
    maxAgeSeconds: 0,
    secure: deps.config.nodeEnv === 'production',
    sameSite: 'Lax',
  });
}

export function signInProviderRoutes(deps: SignInProvidersDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/Auth/sso/providers',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Provedores de identidade de uma unidade, para a tela de entrada',
          querystring: z.object({ federativeUnit: z.string().trim().min(2).max(8) }),
          response: { 200: z.array(signInProviderSchema), 400: errorBodySchema },
        },
      },
      async (request) => listSignInProviders(deps, request.query.federativeUnit.toUpperCase()),
    );

    routes.get(
      '/api/Auth/sso/:id/start',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary:
            'Entrar pelo provedor de identidade, ou confirmar a identidade por ele (purpose=reauth); redireciona ao provedor',
          params: idParams,
          querystring: z.object({ purpose: z.enum(['sign-in', 'reauth']).default('sign-in') }),
          response: { 302: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        try {
          const started = await startSsoSignIn(deps, {
            providerId: request.params.id,
            ip: request.ip,
            purpose: request.query.purpose,
          });
          setCookie(reply, {
            name: BROWSER_COOKIE,
            value: started.browserToken,
            path: COOKIE_PATH,
            maxAgeSeconds: 600,
            secure: deps.config.nodeEnv === 'production',
            sameSite: 'Lax',
          });
          return reply.redirect(started.url.toString(), 302);
        } catch (error) {
          return reply.redirect(returnAddress(deps, { error: failureCode(request, error) }), 302);
        }
      },
    );

    routes.get(
      SSO_CALLBACK_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Retorno do provedor de identidade (redireciona ao aplicativo)',
          // Anything the provider (or anyone) sends comes back as a redirect, never a 400 body.
          querystring: z.record(z.string(), z.unknown()),
          response: { 302: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        try {
          const handoff = await finishSsoSignIn(
            deps,
            new URLSearchParams(
              Object.entries(request.query).flatMap(([key, value]) =>
                typeof value === 'string' && value.length <= 4096
                  ? [[key, value] as [string, string]]
                  : [],
              ),
            ),
            browserToken(request),
          );
          return reply.redirect(returnAddress(deps, { handoff }), 302);
        } catch (error) {
          return reply.redirect(returnAddress(deps, { error: failureCode(request, error) }), 302);
        }
      },
    );

    routes.post(
      '/api/Auth/sso/session',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Trocar a passagem de uso único do retorno do provedor pela sessão',
          body: z.object({ handoff: z.string().trim().min(20).max(200) }),
          response: { 200: authUserSchema, ...errors },
        },
      },
      async (request, reply) => {
        const user = await completeSsoSignIn(deps, {
          handoff: request.body.handoff,
          browserToken: browserToken(request),
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        });
        clearBrowserCookie(reply, deps);
        return user;
      },
    );

    routes.post(
      '/api/Auth/sso/reauthenticate',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary:
            'Confirmar a identidade pelo provedor antes de uma ação sensível (passagem de uma entrada purpose=reauth)',
          body: z.object({ handoff: z.string().trim().min(20).max(200) }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await reauthenticateWithSso(deps, currentUser(request), {
          handoff: request.body.handoff,
          browserToken: browserToken(request),
        });
        clearBrowserCookie(reply, deps);
        return reply.status(204).send(null);
      },
    );

    routes.get(
      '/api/IdentityProvider',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags,
          summary: 'Provedores de identidade da unidade',
          response: { 200: z.array(identityProviderSchema), ...errors },
        },
      },
      async (request) => listUnitProviders(deps, currentUser(request)),
    );

    routes.post(
      '/api/IdentityProvider',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags,
          summary: 'Cadastrar um provedor de identidade (OpenID Connect) da unidade',
          body: identityProviderInputSchema,
          response: { 201: identityProviderSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await addProvider(deps, currentUser(request), request.body)),
    );

    routes.put(
      '/api/IdentityProvider/:id',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags,
          summary: 'Alterar um provedor de identidade da unidade',
          params: idParams,
          body: identityProviderInputSchema,
          response: { 200: identityProviderSchema, ...errors },
        },
      },
      async (request) =>
        changeProvider(deps, currentUser(request), request.params.id, request.body),
    );

    routes.delete(
      '/api/IdentityProvider/:id',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags,
          summary: 'Remover um provedor de identidade da unidade (e os vínculos de contas)',
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await removeProvider(deps, currentUser(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
