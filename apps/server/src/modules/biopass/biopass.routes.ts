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
  FACE_ENROL_MAX_IMAGES,
  FACE_VERIFY_BODY_LIMIT,
  ROLES,
  verifyRequestSchema,
  verifyResponseSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPrivateImage, signedAccessQuery } from '../../lib/signed-access';
import { currentUser } from '../../plugins/auth';
import {
  enrolFace,
  getEnrolment,
  readFaceImage,
  verifyFace,
  type BiopassDeps,
} from './biopass.service';

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

export function biopassRoutes(deps: BiopassDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.post(
      '/api/BiopassID/Create',
      {
        // Enrolment is done on the admin-guarded biometry screen: ADMIN only, as that screen.
        config: { access: ['ADMIN'] },
        bodyLimit: FACE_ENROL_BODY_LIMIT,
        schema: {
          tags: ['biometrics'],
          summary: `Cadastrar o rosto de um usuário da unidade (1 a ${FACE_ENROL_MAX_IMAGES} fotos; ADMIN)`,
          body: enrolRequestSchema,
          response: {
            201: enrolResponseSchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { cpf, image, images, uf } = request.body;
        return reply.status(201).send(
          await enrolFace(deps, currentUser(request), {
            cpf,
            images: images ?? (image ? [image] : []),
            uf,
          }),
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
            'Verificar 1:1 um rosto contra o cadastro do CPF, com a sequência de quadros (apenas no Distrito Federal)',
          description: `\`image\` é a foto verificada e o primeiro quadro da sequência; \`frames\` traz só os demais quadros, na ordem da captura (sem repetir \`image\`). São ${FACE_BURST_MIN_PICTURES} a ${FACE_BURST_MAX_PICTURES} fotos ao todo; com menos a validação é recusada (\`FACE_LIVENESS_REQUIRED\`). \`uf\`, quando enviada, deve ser a unidade do usuário (senão \`403 FACE_UNIT_MISMATCH\`). Responde a decisão (\`verified\`) a todos os perfis; distância, similaridade, limiar e as verificações de vivacidade só a ADMIN e AUDITOR.`,
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
        config: { access: ['ADMIN', 'auditor'] },
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
