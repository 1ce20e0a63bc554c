/**
 * The second factor's routes: the step after a right password
 * (`api/Auth/mfa/*`, public, authorized by the ticket of the
 * `multi-factor-*-required` answer) and a signed-in person's own factors
 * (`api/Auth/factors`, `api/Auth/recovery-codes`). Adding or removing a
 * factor and new recovery codes ask for a recent proof of identity: a
 * session left open must not be enough to give itself a way past every
 * later re-authentication.
 */
import {
  authUserSchema,
  enrolledSignInSchema,
  errorBodySchema,
  factorAddedSchema,
  factorConfirmationSchema,
  mfaEnrolInputSchema,
  mfaPasskeyInputSchema,
  mfaTicketInputSchema,
  mfaVerifyInputSchema,
  recoveryCodesSchema,
  ROLES,
  secondFactorStatusSchema,
  totpSetupSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/current-user';
import { clientOf, signedIn } from './device-cookie';
import type { IdentityDeps } from './identity-deps';
import {
  enrolAndSignIn,
  enrolPasskeyOptions,
  enrolTotpSetup,
  passkeySignInOptions,
  reauthPasskeyOptions,
  verifySignInCode,
  verifySignInPasskey,
} from './mfa-sign-in.service';
import {
  accountTicket,
  factorStatus,
  findAccountTicket,
  regenerateRecoveryCodes,
  removeFactor,
  resetFactorsOf,
} from './account-factors.service';
import { confirmFactor, startPasskeySetup, startTotpSetup } from './second-factor.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};
/** WebAuthn options as `@simplewebauthn/server` makes them (the browser library reads them). */
const webauthnOptionsSchema = z.record(z.string(), z.unknown());
const asJson = (options: object) => options as Record<string, unknown>;
const tags = ['auth'];

export function secondFactorRoutes(deps: IdentityDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    const ticketRoute = { config: { access: 'public' as const } };

    routes.post(
      '/api/Auth/mfa/verify',
      {
        ...ticketRoute,
        schema: {
          tags,
          summary: 'Concluir o login com o código do aplicativo ou um código de recuperação',
          body: mfaVerifyInputSchema,
          response: { 200: authUserSchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await verifySignInCode(deps, { ...request.body, ...clientOf(request) });
        return signedIn(reply, deps.config, result).user;
      },
    );

    routes.post(
      '/api/Auth/mfa/passkey/options',
      {
        ...ticketRoute,
        schema: {
          tags,
          summary: 'Opções para confirmar o login com uma chave de acesso (WebAuthn)',
          body: mfaTicketInputSchema,
          response: { 200: webauthnOptionsSchema, ...errors },
        },
      },
      async (request) => asJson(await passkeySignInOptions(deps, request.body)),
    );

    routes.post(
      '/api/Auth/mfa/passkey',
      {
        ...ticketRoute,
        schema: {
          tags,
          summary: 'Concluir o login com uma chave de acesso',
          body: mfaPasskeyInputSchema,
          response: { 200: authUserSchema, ...errors },
        },
      },
      async (request, reply) => {
        const result = await verifySignInPasskey(deps, { ...request.body, ...clientOf(request) });
        return signedIn(reply, deps.config, result).user;
      },
    );

    routes.post(
      '/api/Auth/mfa/enrol/totp',
      {
        ...ticketRoute,
        schema: {
          tags,
          summary: 'Cadastro obrigatório: configurar um aplicativo autenticador',
          body: mfaTicketInputSchema,
          response: { 200: totpSetupSchema, ...errors },
        },
      },
      async (request) => enrolTotpSetup(deps, request.body),
    );

    routes.post(
      '/api/Auth/mfa/enrol/passkey/options',
      {
        ...ticketRoute,
        schema: {
          tags,
          summary: 'Cadastro obrigatório: opções para criar uma chave de acesso',
          body: mfaTicketInputSchema,
          response: { 200: webauthnOptionsSchema, ...errors },
        },
      },
      async (request) => asJson(await enrolPasskeyOptions(deps, request.body)),
    );

    routes.post(
      '/api/Auth/mfa/enrol',
      {
        ...ticketRoute,
        schema: {
          tags,
          summary: 'Cadastro obrigatório: confirmar o segundo fator e entrar',
          body: mfaEnrolInputSchema,
          response: { 200: enrolledSignInSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { ticket, ...confirmation } = request.body;
        const result = await enrolAndSignIn(deps, {
          ticket,
          confirmation,
          ...clientOf(request),
        });
        const done = signedIn(reply, deps.config, result);
        return { ...done.user, recoveryCodes: done.recoveryCodes };
      },
    );

    routes.post(
      '/api/Auth/reauthenticate/passkey/options',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary: 'Opções para confirmar a identidade com uma chave de acesso',
          response: { 200: webauthnOptionsSchema, ...errors },
        },
      },
      async (request) => asJson(await reauthPasskeyOptions(deps, currentUser(request))),
    );

    routes.get(
      '/api/Auth/factors',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary: 'Segundos fatores da conta',
          response: { 200: secondFactorStatusSchema, 401: errorBodySchema },
        },
      },
      async (request) => factorStatus(deps, currentUser(request)),
    );

    routes.post(
      '/api/Auth/factors/totp',
      {
        config: { access: ROLES, reauth: true },
        schema: {
          tags,
          summary: 'Começar o cadastro de um aplicativo autenticador',
          response: { 200: totpSetupSchema, ...errors },
        },
      },
      async (request) => {
        const actor = currentUser(request);
        return startTotpSetup(deps, await accountTicket(deps, actor, new Date()), actor);
      },
    );

    routes.post(
      '/api/Auth/factors/passkey/options',
      {
        config: { access: ROLES, reauth: true },
        schema: {
          tags,
          summary: 'Opções para criar uma chave de acesso',
          response: { 200: webauthnOptionsSchema, ...errors },
        },
      },
      async (request) => {
        const actor = currentUser(request);
        return asJson(
          await startPasskeySetup(deps, await accountTicket(deps, actor, new Date()), actor),
        );
      },
    );

    routes.post(
      '/api/Auth/factors',
      {
        config: { access: ROLES, reauth: true },
        schema: {
          tags,
          summary: 'Confirmar um novo segundo fator',
          body: factorConfirmationSchema,
          response: { 201: factorAddedSchema, ...errors },
        },
      },
      async (request, reply) => {
        const actor = currentUser(request);
        const now = new Date();
        const ticket = await findAccountTicket(deps, actor, now);
        const added = await confirmFactor(deps, ticket, actor, request.body, now);
        return reply.status(201).send(added);
      },
    );

    routes.delete(
      '/api/Auth/factors/:id',
      {
        config: { access: ROLES, reauth: true },
        schema: {
          tags,
          summary: 'Remover um segundo fator',
          params: z.object({ id: z.uuid() }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await removeFactor(deps, currentUser(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    routes.delete(
      '/api/User/:id/factors',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags: ['users'],
          summary:
            'Redefinir o segundo fator de um usuário da unidade (perdeu o aparelho e os códigos)',
          params: z.object({ id: z.uuid() }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await resetFactorsOf(deps, currentUser(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    routes.post(
      '/api/Auth/recovery-codes',
      {
        config: { access: ROLES, reauth: true },
        schema: {
          tags,
          summary: 'Gerar novos códigos de recuperação (os anteriores deixam de valer)',
          response: { 200: recoveryCodesSchema, ...errors },
        },
      },
      async (request) => ({ codes: await regenerateRecoveryCodes(deps, currentUser(request)) }),
    );
  };
}
