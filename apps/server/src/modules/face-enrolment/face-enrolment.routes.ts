/**
 * `api/BiopassID`: face enrolment, 1:1 verification and the logged view of
 * enrolment captures. Each route is its schema, its access and one service call.
 */
import {
  deviceIdSchema,
  enrolmentSchema,
  enrolRequestSchema,
  enrolResponseSchema,
  errorBodySchema,
  FACE_BURST_MAX_PICTURES,
  FACE_BURST_MIN_PICTURES,
  faceCpfSchema,
  FACE_ENROL_BODY_LIMIT,
  faceChallengeRequestSchema,
  faceChallengeSchema,
  FACE_VERIFY_BODY_LIMIT,
  ROLES,
  verifyRequestSchema,
  verifyResponseSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPrivateImage, signedAccessQuery } from '../../lib/signed-access';
import { currentUser } from '../../lib/current-user';
import { issueChallenge, type SubjectResolver } from './face-challenges.service';
import {
  ENROLMENT_VIEWERS,
  enrolFace,
  getEnrolment,
  readFaceImage,
  verifyFace,
  type BiopassDeps,
} from './face-enrolment.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  409: errorBodySchema,
  415: errorBodySchema,
  422: errorBodySchema,
  503: errorBodySchema,
};
/** Other headers pass untouched; `x-device-id`, when sent, follows the rule of the body field. */
const deviceHeaders = z.looseObject({ 'x-device-id': deviceIdSchema.optional() });

export function biopassRoutes(deps: BiopassDeps & { resolveSubject?: SubjectResolver }) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.post(
      '/api/BiopassID/Challenge',
      {
        // Every flow that captures a face starts here; each flow checks its own role.
        config: { access: ROLES },
        schema: {
          tags: ['biometrics'],
          summary:
            'Pedir o desafio de uma captura facial (movimentos da cabeça, uso único, 1 minuto)',
          description:
            'Sorteia 2 ou 3 movimentos (`left`, `right`, `up`, `down`: a esquerda e a direita da própria pessoa) que a captura deve mostrar, nessa ordem, entre uma foto olhando para a câmera no início e outra no fim (`pictures` = passos + 2). O desafio vale para quem o pediu, para o CPF (ou o examinador de `checkInViewerId`, ou o de `proctoringToken`) e para o uso (`purpose`), por 60 s e uma única vez.',
          body: faceChallengeRequestSchema,
          response: { 201: faceChallengeSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await issueChallenge(deps, currentUser(request), request.body)),
    );

    routes.post(
      '/api/BiopassID/Create',
      {
        // Enrolment is done on the admin-guarded biometry screen: ADMIN only, as that screen.
        config: { access: ['ADMIN'] },
        bodyLimit: FACE_ENROL_BODY_LIMIT,
        schema: {
          tags: ['biometrics'],
          summary:
            'Cadastrar o rosto de um usuário da unidade com uma captura ao vivo que responde a um desafio (ADMIN)',
          body: enrolRequestSchema,
          response: {
            201: enrolResponseSchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { cpf, challengeId, image, frames, uf } = request.body;
        return reply
          .status(201)
          .send(
            await enrolFace(deps, currentUser(request), { cpf, challengeId, image, frames, uf }),
          );
      },
    );

    routes.post(
      '/api/BiopassID/Verify',
      {
        config: { access: ROLES },
        // The burst, each picture a camera capture sent once: the body cannot be larger.
        bodyLimit: FACE_VERIFY_BODY_LIMIT,
        schema: {
          tags: ['biometrics'],
          summary:
            'Verificar 1:1 um rosto contra o cadastro do CPF, com a captura que responde ao desafio (apenas no Distrito Federal)',
          description: `\`challengeId\` é o desafio pedido em \`api/BiopassID/Challenge\`; \`image\` é a primeira foto da captura (olhando para a câmera) e \`frames\` as demais, na ordem: uma no auge de cada movimento pedido e outra olhando para a câmera no fim (${FACE_BURST_MIN_PICTURES} ou ${FACE_BURST_MAX_PICTURES} fotos ao todo). Uma captura que não segue o desafio é recusada com um código \`FACE_CHALLENGE_*\` e nada é gravado. \`uf\`, quando enviada, deve ser a unidade do usuário (senão \`403 FACE_UNIT_MISMATCH\`). Responde a decisão (\`verified\`) a todos os perfis; distância, similaridade, limiar e as verificações de vivacidade só a ADMIN e AUDITOR.`,
          headers: deviceHeaders,
          body: verifyRequestSchema,
          response: {
            200: verifyResponseSchema,
            ...errors,
          },
        },
      },
      async (request) =>
        verifyFace(deps, currentUser(request), {
          ...request.body,
          deviceId: request.body.deviceId ?? request.headers['x-device-id'] ?? null,
        }),
    );

    routes.get(
      '/api/BiopassID/:cpf',
      {
        config: { access: ENROLMENT_VIEWERS },
        schema: {
          tags: ['biometrics'],
          summary: 'Cadastro facial de um CPF da unidade, com endereços temporários das fotos',
          params: z.object({ cpf: faceCpfSchema }),
          response: { 200: enrolmentSchema, ...errors },
        },
      },
      async (request) => getEnrolment(deps, currentUser(request), request.params),
    );

    routes.get(
      '/api/BiopassID/image/:key',
      {
        config: { access: 'public' },
        schema: {
          tags: ['biometrics'],
          summary: 'Foto do cadastro facial por endereço assinado (cada visualização é registrada)',
          params: z.object({ key: z.uuid() }),
          querystring: signedAccessQuery,
          response: { 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        const content = await readFaceImage(deps, request.query, request.params);
        return sendPrivateImage(reply, content, 'private, no-store');
      },
    );
  };
}
