/** `api/BiopassID`: face enrolment, 1:1 verification and the logged view of enrolment captures. */
import { enrolResponseSchema, errorBodySchema, ROLES, verifyResponseSchema } from '@exame/shared';
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
/** Base64 of an image, with or without its data-URL prefix. */
const image = z
  .string()
  .min(16, 'Envie a imagem capturada.')
  .max(7_000_000, 'A imagem é grande demais.');
const cpf = z.string().trim().min(11).max(14);

export function biopassRoutes(deps: BiopassDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.post(
      '/api/BiopassID/Create',
      {
        // Enrolment is done on the admin-guarded biometry screen: ADMIN only, as that screen.
        config: { access: ['ADMIN'] },
        bodyLimit: 48 * 1024 * 1024,
        schema: {
          tags: ['biometrics'],
          summary: 'Cadastrar o rosto de um usuário da unidade (1 a 5 fotos; ADMIN)',
          body: z
            .object({
              cpf,
              image: image.optional(),
              images: z.array(image).min(1).max(5).optional(),
              uf: z.string().max(4).optional(),
              local: z.string().max(80).nullable().optional(),
            })
            .refine((body) => body.image || body.images, {
              message: 'Envie a imagem capturada.',
              path: ['image'],
            }),
          response: {
            201: enrolResponseSchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const images = request.body.images ?? (request.body.image ? [request.body.image] : []);
        return reply
          .status(201)
          .send(await enrolFace(deps, currentUser(request), { cpf: request.body.cpf, images }));
      },
    );

    routes.post(
      '/api/BiopassID/Verify',
      {
        config: { access: ROLES },
        // An image and up to 5 frames, each up to the 7 MB of base64 the schema allows.
        bodyLimit: 48 * 1024 * 1024,
        schema: {
          tags: ['biometrics'],
          summary: 'Verificar 1:1 um rosto contra o cadastro do CPF (apenas no Distrito Federal)',
          body: z.object({
            cpf,
            image,
            frames: z.array(image).max(5).optional(),
            uf: z.string().max(4).optional(),
            local: z.string().max(80).nullable().optional(),
            deviceId: z.string().max(64).nullable().optional(),
          }),
          response: {
            200: verifyResponseSchema,
            ...errors,
          },
        },
      },
      async (request) =>
        verifyFace(deps, currentUser(request), {
          cpf: request.body.cpf,
          image: request.body.image,
          frames: request.body.frames,
          local: request.body.local,
          deviceId:
            request.body.deviceId ?? (request.headers['x-device-id'] as string | undefined) ?? null,
        }),
    );

    routes.get(
      '/api/BiopassID/:cpf',
      {
        config: { access: ['ADMIN', 'AUDITOR'] },
        schema: {
          tags: ['biometrics'],
          summary: 'Cadastro facial de um CPF da unidade, com endereços temporários das fotos',
          params: z.object({ cpf }),
          response: {
            200: z.object({
              cpf: z.string(),
              enrolledAt: z.string(),
              captures: z.array(z.object({ url: z.string() })),
            }),
            ...errors,
          },
        },
      },
      async (request) => getEnrolment(deps, currentUser(request), request.params.cpf),
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
        const content = await readFaceImage(deps, request.params.key, request.query);
        return sendPrivateImage(reply, content, 'private, no-store');
      },
    );
  };
}
