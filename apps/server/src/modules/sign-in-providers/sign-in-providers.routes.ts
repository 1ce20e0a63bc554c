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
  signInProviderSchema,
  SSO_CALLBACK_PATH,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { currentUser } from '../../lib/current-user';
import {
  addProvider,
  changeProvider,
  listSignInProviders,
  listUnitProviders,
  removeProvider,
  type SignInProvidersDeps,
} from './sign-in-providers.service';
import { completeSsoSignIn, finishSsoSignIn, returnAddress, startSsoSignIn } from './sso.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
  502: errorBodySchema,
};
const tags = ['auth'];
const idParams = z.object({ id: z.string().uuid() });

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
          summary: 'Entrar pelo provedor de identidade (redireciona ao provedor)',
          params: idParams,
          response: { 302: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        try {
          const url = await startSsoSignIn(deps, { providerId: request.params.id, ip: request.ip });
          return reply.redirect(url.toString(), 302);
        } catch (error) {
          if (!(error instanceof AppError) || error.status === 429) throw error;
          return reply.redirect(returnAddress(deps, { error: error.code }), 302);
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
          querystring: z.record(z.string(), z.string().max(4096)),
          response: { 302: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        try {
          const handoff = await finishSsoSignIn(deps, new URLSearchParams(request.query));
          return reply.redirect(returnAddress(deps, { handoff }), 302);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          return reply.redirect(returnAddress(deps, { error: error.code }), 302);
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
      async (request) =>
        completeSsoSignIn(deps, {
          handoff: request.body.handoff,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        }),
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
