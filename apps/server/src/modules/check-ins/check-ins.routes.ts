/**
 * The check-in calls of spec 7 (`api/SchedulingLocalCheckIn/...`,
 * `api/Auth/viewer-checkin`, `api/Auth/biometric-viewer-checkin`), plus the
 * ADMIN's forced close and the signed address of the captures. Each route is
 * its schema, its access and one service call.
 */
import {
  biometricViewerCheckinRequestSchema,
  biometricViewerCheckinResponseSchema,
  checkInConfigSchema,
  checkInExamPageSchema,
  checkInExamsQuerySchema,
  checkInPageSchema,
  checkInRecordSchema,
  checkInRequestSchema,
  checkInResponseSchema,
  checkOutRequestSchema,
  errorBodySchema,
  EXAMINER_ROLES,
  FACE_VERIFY_BODY_LIMIT,
  findCheckInQuerySchema,
  forceCloseRequestSchema,
  myOpenCheckInSchema,
  ROLES,
  searchCheckInQuerySchema,
  transferRequestSchema,
  updateCheckInRequestSchema,
  viewerCheckinRequestSchema,
  viewerCheckinResponseSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPrivateImage, signedAccessQuery } from '../../lib/signed-access';
import { currentUser } from '../../lib/current-user';
import { checkIn, transferExaminer, updateCheckIn } from './check-ins.service';
import { checkOut, forceClose } from './check-out.service';
import { biometricExaminerCheckIn } from './check-in-face.service';
import {
  findOpenCheckIn,
  getCheckIn,
  listRecordExams,
  searchRecords,
} from './check-in-records.service';
import { getConfig, type CheckInDeps } from './check-in-rules';
import { readCheckInFace } from './check-in-face-images';
import { confirmSecondExaminer } from './examiner-identity';
import { listMyOpenCheckIns } from './my-check-ins.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
const idParams = z.object({ id: z.uuid('Registro de entrada inválido.') });
const tags = ['check-in'];

export function checkInRoutes(deps: CheckInDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/SchedulingLocalCheckIn/getConfig',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary:
            'O que a unidade exige da entrada na sala (validação facial, segundo examinador)',
          querystring: z.object({ federativeUnit: z.string().trim().min(2).max(4) }),
          response: { 200: checkInConfigSchema, ...errors },
        },
      },
      async (request) => getConfig(deps, currentUser(request), request.query),
    );

    routes.post(
      '/api/Auth/viewer-checkin',
      {
        config: { access: EXAMINER_ROLES },
        schema: {
          tags,
          summary:
            'Confirmar o examinador 2 por e-mail e senha, sem trocar a sessão do examinador 1',
          description:
            'A confirmação (`proctoringToken`) é do examinador 1 que a pediu, na sessão em que a pediu, e vale uma única vez, por até 30 minutos, para o que ele disse: abrir a sala no posto `schedulingLocal`, ou incluir o examinador 2 no registro aberto `checkInId` (ou transferir a sala a ele). Usada, vencida, ou apresentada em outro posto ou registro: `401 PROCTORING_TOKEN_INVALID`.',
          body: viewerCheckinRequestSchema,
          response: { 200: viewerCheckinResponseSchema, ...errors },
        },
      },
      async (request) =>
        confirmSecondExaminer(deps, currentUser(request), { ...request.body, ip: request.ip }),
    );

    routes.post(
      '/api/Auth/biometric-viewer-checkin',
      {
        config: { access: EXAMINER_ROLES },
        bodyLimit: FACE_VERIFY_BODY_LIMIT,
        schema: {
          tags,
          summary:
            'Validar o rosto de um examinador da unidade para entrar ou sair da sala (apenas no Distrito Federal)',
          description:
            'O corpo segue o de `api/BiopassID/Verify` (`image` e os demais quadros em `frames`). A captura validada fica guardada (cifrada) como prova e a resposta (`verificationId`) admite o examinador uma única vez, em até 10 minutos, na entrada ou na saída do mesmo posto (`local`). O rosto nunca basta sozinho: quem não é o usuário conectado nem o examinador 2 (`proctoringToken`) digita a própria senha (`password`), conferida como num login (mesmo limite de tentativas); sem ela, `403 FACE_OWN_FACTOR_REQUIRED`, a não ser que a unidade permita a entrada só com o rosto. Na saída (`checkInViewerId`) a senha não é pedida.',
          body: biometricViewerCheckinRequestSchema,
          response: { 200: biometricViewerCheckinResponseSchema, ...errors, 503: errorBodySchema },
        },
      },
      async (request) =>
        biometricExaminerCheckIn(deps, currentUser(request), {
          ...request.body,
          deviceId: request.body.deviceId ?? null,
          ip: request.ip,
        }),
    );

    routes.post(
      '/api/SchedulingLocalCheckIn/checkIn',
      {
        config: { access: EXAMINER_ROLES },
        schema: {
          tags,
          summary: 'Abrir a sala do posto com um ou dois examinadores',
          body: checkInRequestSchema,
          response: { 201: checkInResponseSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await checkIn(deps, currentUser(request), request.body)),
    );

    routes.get(
      '/api/SchedulingLocalCheckIn/findCheckIn',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary: 'A entrada aberta de um examinador em um posto',
          querystring: findCheckInQuerySchema,
          response: { 200: checkInRecordSchema, ...errors },
        },
      },
      async (request) => findOpenCheckIn(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/SchedulingLocalCheckIn/myOpenCheckIns',
      {
        config: { access: EXAMINER_ROLES },
        schema: {
          tags,
          summary: 'As entradas abertas do examinador conectado, em qualquer dispositivo',
          description:
            'Os registros abertos da unidade em que o examinador conectado está (na sala, ou já fora enquanto o outro continua) ou que ele abriu para a identidade separada do examinador. Primeiro aquele em que ele está na sala; depois os mais recentes. Não depende do posto guardado no navegador.',
          response: { 200: z.array(myOpenCheckInSchema), ...errors },
        },
      },
      async (request) => listMyOpenCheckIns(deps, currentUser(request)),
    );

    routes.get(
      '/api/SchedulingLocalCheckIn/findCheckInById/:id',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary: 'Um registro de entrada, com os examinadores, as capturas e o histórico',
          params: idParams,
          response: { 200: checkInRecordSchema, ...errors },
        },
      },
      async (request) => getCheckIn(deps, currentUser(request), request.params),
    );

    routes.get(
      '/api/SchedulingLocalCheckIn/searchCheckIn',
      {
        config: { access: ['ADMIN', 'auditor'] },
        schema: {
          tags,
          summary: 'Registros de entrada da unidade, com filtros, paginados',
          querystring: searchCheckInQuerySchema,
          response: { 200: checkInPageSchema, ...errors },
        },
      },
      async (request) => searchRecords(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/SchedulingLocalCheckIn/exams',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary: 'Os exames do posto no dia do registro de entrada',
          querystring: checkInExamsQuerySchema,
          response: { 200: checkInExamPageSchema, ...errors },
        },
      },
      async (request) => listRecordExams(deps, currentUser(request), request.query),
    );

    routes.put(
      '/api/SchedulingLocalCheckIn/update-checkIn/:id',
      {
        config: { access: [...EXAMINER_ROLES, 'ADMIN'] },
        schema: {
          tags,
          summary: 'Incluir ou remover um examinador da sala aberta',
          params: idParams,
          body: updateCheckInRequestSchema,
          response: { 200: checkInRecordSchema, ...errors },
        },
      },
      async (request) => updateCheckIn(deps, currentUser(request), request.params.id, request.body),
    );

    routes.post(
      '/api/SchedulingLocalCheckIn/checkOut',
      {
        config: { access: EXAMINER_ROLES },
        schema: {
          tags,
          summary: 'Registrar a saída de um examinador (a sala se encerra com a saída do último)',
          body: checkOutRequestSchema,
          response: { 200: checkInRecordSchema, ...errors },
        },
      },
      async (request) => checkOut(deps, currentUser(request), request.body),
    );

    routes.post(
      '/api/SchedulingLocalCheckIn/transfer',
      {
        config: { access: [...EXAMINER_ROLES, 'ADMIN'] },
        schema: {
          tags,
          summary:
            'Transferir a sala de um examinador a outro da unidade (senha e, onde exigido, rosto de quem recebe)',
          body: transferRequestSchema,
          response: { 200: checkInRecordSchema, ...errors },
        },
      },
      async (request) => transferExaminer(deps, currentUser(request), request.body),
    );

    routes.post(
      '/api/SchedulingLocalCheckIn/forceClose',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags,
          summary: 'Encerrar uma sala deixada aberta, com o motivo (ADMIN)',
          body: forceCloseRequestSchema,
          response: { 200: checkInRecordSchema, ...errors },
        },
      },
      async (request) => forceClose(deps, currentUser(request), request.body),
    );

    routes.get(
      '/api/SchedulingLocalCheckIn/face/:key',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary:
            'Captura da entrada ou da saída por endereço assinado (cada visualização é registrada)',
          params: z.object({ key: z.uuid() }),
          querystring: signedAccessQuery,
          response: { 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        const content = await readCheckInFace(deps, request.query, request.params);
        return sendPrivateImage(reply, content, 'private, no-store');
      },
    );
  };
}
