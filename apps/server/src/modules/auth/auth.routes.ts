/** `api/Auth` (sign-in, sign-out, current user, password policy) and the password-link endpoints of `api/User`. */
import {
  authUserSchema,
  errorBodySchema,
  passwordPolicySchema,
  ROLES,
  userSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/current-user';
import { getProfile } from '../users/users.service';
import { reauthenticate, signIn, signOut } from './auth.service';
import { clientOf, signedIn } from './device-cookie';
import { reauthenticateWithCode, reauthenticateWithPasskey } from './mfa-sign-in.service';
import type { IdentityDeps } from './identity-deps';
import {
  LINK_REQUEST_ACCEPTED,
  requestPasswordLink,
  setPasswordWithLink,
} from './password-links.service';

const messageSchema = z.object({ message: z.string() });
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  429: errorBodySchema,
};

export function authRoutes(deps: IdentityDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.post(
      '/api/Auth',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Entrar com e-mail e senha',
          body: z.object({
            email: z.string().trim().min(1).max(254),
            password: z.string().min(1).max(4096),
          }),
          response: { 200: authUserSchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await signIn(deps, {
          email: request.body.email,
          password: request.body.password,
          ...clientOf(request),
        });
        return signedIn(reply, deps.config, result).user;
      },
    );

    routes.post(
      '/api/Auth/logout',
      {
        config: { access: ROLES },
        schema: {
          tags: ['auth'],
          summary: 'Encerrar a sessão',
          response: { 204: z.null(), 401: errorBodySchema },
        },
      },
      async (request, reply) => {
        await signOut(deps, currentUser(request));
        return reply.status(204).send(null);
      },
    );

    routes.post(
      '/api/Auth/reauthenticate',
      {
        config: { access: ROLES },
        schema: {
          tags: ['auth'],
          summary:
            'Confirmar a identidade (e-mail e senha, código do segundo fator ou chave de acesso) antes de uma ação sensível',
          body: z.union([
            z.object({
              email: z.string().trim().min(1).max(254),
              password: z.string().min(1).max(4096),
            }),
            z.object({
              method: z.enum(['totp', 'recovery']),
              code: z.string().trim().min(1).max(40),
            }),
            z.object({ credential: z.record(z.string(), z.unknown()) }),
          ]),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const actor = currentUser(request);
        if ('password' in body) await reauthenticate(deps, actor, { ...body, ip: request.ip });
        else if ('credential' in body) {
          await reauthenticateWithPasskey(deps, actor, { ...body, ip: request.ip });
        } else await reauthenticateWithCode(deps, actor, { ...body, ip: request.ip });
        return reply.status(204).send(null);
      },
    );

    routes.get(
      '/api/Auth/me',
      {
        config: { access: ROLES },
        schema: {
          tags: ['auth'],
          summary: 'Usuário da sessão',
          response: { 200: userSchema, 401: errorBodySchema },
        },
      },
      async (request) => getProfile(deps, currentUser(request)),
    );

    routes.get(
      '/api/Auth/password-policy',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Política de senhas (versão 1)',
          response: { 200: passwordPolicySchema },
        },
      },
      async () => deps.config.passwordPolicy,
    );

    routes.post(
      '/api/User/reset/:value',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Pedir o link de redefinição de senha (e-mail ou CPF)',
          params: z.object({ value: z.string().trim().min(1).max(254) }),
          response: { 202: messageSchema, ...errors },
        },
      },
      async (request, reply) => {
        await requestPasswordLink(deps, {
          value: request.params.value,
          kind: 'reset',
          ip: request.ip,
        });
        return reply.status(202).send({ message: LINK_REQUEST_ACCEPTED });
      },
    );

    routes.post(
      '/api/User/verifyEmail/:value',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Reenviar o link de cadastro de senha a um usuário novo (e-mail ou CPF)',
          params: z.object({ value: z.string().trim().min(1).max(254) }),
          response: { 202: messageSchema, ...errors },
        },
      },
      async (request, reply) => {
        await requestPasswordLink(deps, {
          value: request.params.value,
          kind: 'register',
          ip: request.ip,
        });
        return reply.status(202).send({ message: LINK_REQUEST_ACCEPTED });
      },
    );

    routes.patch(
      '/api/User/password',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Definir a senha com o link recebido por e-mail',
          body: z.object({
            cpf: z.string().trim().min(11).max(14),
            token: z.string().trim().min(20).max(200),
            password: z.string().min(1).max(4096),
          }),
          response: { 200: messageSchema, ...errors },
        },
      },
      async (request) => {
        await setPasswordWithLink(deps, { ...request.body, ip: request.ip });
        return { message: 'Senha cadastrada com sucesso. Entre com o seu e-mail e a nova senha.' };
      },
    );
  };
}
