/** The users API of spec 7. */
import {
  createUserSchema,
  errorBodySchema,
  idParamsSchema,
  REGISTER_STATUSES,
  ROLES,
  userPageSchema,
  userQuerySchema,
  userSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/current-user';
import {
  changeRole,
  createDemoUser,
  createUserByAdmin,
  getUser,
  getUserByCpf,
  getUserByCpfOrEmail,
  listExaminers,
  listUsers,
  setRegisterStatus,
  type UsersDeps,
} from './users.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

export function userRoutes(deps: UsersDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/User/GetAllExaminers',
      {
        config: { access: ROLES },
        schema: {
          tags: ['users'],
          summary: 'Examinadores (VIEWER e ROOM_INSPECTOR) da unidade do usuário',
          response: { 200: z.array(userSchema), ...errors },
        },
      },
      async (request) => listExaminers(deps, currentUser(request)),
    );

    routes.get(
      '/api/User',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['users'],
          summary: 'Usuários da unidade, paginados, com busca por nome, e-mail ou CPF',
          querystring: userQuerySchema,
          response: { 200: userPageSchema, ...errors },
        },
      },
      async (request) => listUsers(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/User/cpf/:cpf',
      {
        config: { access: ['ADMIN', 'auditor'] },
        schema: {
          tags: ['users'],
          summary: 'Usuário da unidade pelo CPF',
          params: z.object({ cpf: z.string().trim().min(11).max(14) }),
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => getUserByCpf(deps, currentUser(request), request.params.cpf),
    );

    routes.get(
      '/api/User/cpfEmail/:value',
      {
        config: { access: ROLES },
        schema: {
          tags: ['users'],
          summary: 'Usuário da unidade pelo CPF ou e-mail',
          params: z.object({ value: z.string().trim().min(1).max(254) }),
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => getUserByCpfOrEmail(deps, currentUser(request), request.params.value),
    );

    routes.get(
      '/api/User/:id',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['users'],
          summary: 'Usuário da unidade',
          params: idParamsSchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => getUser(deps, currentUser(request), request.params.id),
    );

    routes.put(
      '/api/User/:id/enableDisable',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags: ['users'],
          summary: 'Habilitar ou desabilitar um usuário (desabilitar encerra as sessões dele)',
          params: idParamsSchema,
          body: z.object({ registerStatus: z.enum(REGISTER_STATUSES) }),
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) =>
        setRegisterStatus(
          deps,
          currentUser(request),
          request.params.id,
          request.body.registerStatus,
        ),
    );

    routes.put(
      '/api/User/:id/role',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags: ['users'],
          summary: 'Alterar o perfil de um usuário (encerra as sessões dele)',
          params: idParamsSchema,
          body: z.object({ role: z.enum(ROLES) }),
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) =>
        changeRole(deps, currentUser(request), request.params.id, request.body.role),
    );

    routes.post(
      '/api/User/admin',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['users'],
          summary:
            'Criar um usuário na unidade do administrador; ele recebe o link de cadastro de senha',
          body: createUserSchema,
          response: { 201: userSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createUserByAdmin(deps, currentUser(request), request.body)),
    );

    routes.post(
      '/api/User',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['users'],
          summary: 'Criar um usuário de demonstração na unidade DEMO',
          body: createUserSchema,
          response: { 201: userSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createDemoUser(deps, currentUser(request), request.body)),
    );
  };
}
