/**
 * `api/Demo`: the demonstration flows (admin-guarded screens of spec 2, 6),
 * ADMIN of the DEMO unit only. An ADMIN of any other unit is refused
 * (403 DEMO_UNIT_ONLY) before the body is even read.
 */
import {
  cpfSchema,
  demoCandidateInputSchema,
  demoCandidateSchema,
  demoContactInputSchema,
  demoEnrolRequestSchema,
  demoVerificationSchema,
  demoVerifyRequestSchema,
  demoWipeResultSchema,
  enrolResponseSchema,
  errorBodySchema,
  FACE_ENROL_BODY_LIMIT,
  FACE_VERIFY_BODY_LIMIT,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/current-user';
import {
  assertDemoUnit,
  enrolCandidate,
  getCandidate,
  recordContact,
  registerCandidate,
  searchCandidates,
  verifyCandidate,
  wipeDemoData,
  type DemoDeps,
} from './demo.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const faceErrors = {
  ...errors,
  413: errorBodySchema,
  415: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};
const tags = ['demo'];
const access = ['ADMIN'] as const;
const cpfParams = z.object({ cpf: cpfSchema });

export function demoRoutes(deps: DemoDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    // After the sign-in and role check of every route: the unit, before the body is parsed.
    app.addHook('onRequest', async (request) => {
      assertDemoUnit(currentUser(request));
    });

    routes.post(
      '/api/Demo/candidates',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Cadastrar um candidato de demonstração (mesmo CPF: atualiza nome e nascimento)',
          body: demoCandidateInputSchema,
          response: { 200: demoCandidateSchema, 201: demoCandidateSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { candidate, created } = await registerCandidate(
          deps,
          currentUser(request),
          request.body,
        );
        return reply.status(created ? 201 : 200).send(candidate);
      },
    );

    routes.get(
      '/api/Demo/candidates',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Candidatos de demonstração, os mais recentes primeiro',
          response: { 200: z.array(demoCandidateSchema), ...errors },
        },
      },
      async (request) => searchCandidates(deps, currentUser(request)),
    );

    routes.get(
      '/api/Demo/candidates/:cpf',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Um candidato de demonstração pelo CPF',
          params: cpfParams,
          response: { 200: demoCandidateSchema, ...errors },
        },
      },
      async (request) => getCandidate(deps, currentUser(request), request.params.cpf),
    );

    routes.put(
      '/api/Demo/candidates/:cpf/contact',
      {
        config: { access },
        schema: {
          tags,
          summary:
            'Contato do candidato e o consentimento explícito ao tratamento de dados biométricos (LGPD, art. 11)',
          description:
            '`consentVersion` é a versão do texto mostrado ao candidato (`BIOMETRIC_CONSENT_VERSION`); outra versão é recusada (`409 DEMO_CONSENT_OUTDATED`). O servidor registra a hora, a versão e o SHA-256 do texto.',
          params: cpfParams,
          body: demoContactInputSchema,
          response: { 200: demoCandidateSchema, ...errors },
        },
      },
      async (request) =>
        recordContact(deps, currentUser(request), request.params.cpf, request.body),
    );

    routes.post(
      '/api/Demo/candidates/:cpf/enrol',
      {
        config: { access },
        bodyLimit: FACE_ENROL_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Cadastro facial do candidato de demonstração (exige o consentimento)',
          params: cpfParams,
          body: demoEnrolRequestSchema,
          response: { 201: enrolResponseSchema, ...faceErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await enrolCandidate(deps, currentUser(request), request.params.cpf, request.body)),
    );

    routes.post(
      '/api/Demo/candidates/:cpf/verify',
      {
        config: { access },
        bodyLimit: FACE_VERIFY_BODY_LIMIT,
        schema: {
          tags,
          summary:
            'Demonstração da verificação 1:1: uma segunda captura (sequência de quadros) contra o cadastro do candidato',
          description:
            'A mesma verificação de `api/BiopassID/Verify` (limiar, vivacidade, limites, registro), como demonstração do motor para o ADMIN da unidade DEMO; não é a validação facial do check-in (só no Distrito Federal). Responde a pontuação e as verificações de vivacidade.',
          params: cpfParams,
          body: demoVerifyRequestSchema,
          response: { 200: demoVerificationSchema, ...faceErrors },
        },
      },
      async (request) =>
        verifyCandidate(deps, currentUser(request), request.params.cpf, request.body),
    );

    routes.delete(
      '/api/Demo/data',
      {
        config: { access },
        schema: {
          tags,
          summary:
            'Apagar os dados de demonstração: candidatos, seus cadastros faciais, fotos e verificações',
          response: { 200: demoWipeResultSchema, ...errors },
        },
      },
      async (request) => wipeDemoData(deps, currentUser(request)),
    );
  };
}
