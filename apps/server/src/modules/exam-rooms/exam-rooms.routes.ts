/**
 * Exam rooms (`api/ExamRoom`): rooms and stations of the posts (ADMIN and
 * ROOM_INSPECTOR manage them), the station board of a room, and the exams of
 * a post that no room names. Each route is its schema, its access and one
 * service call.
 */
import {
  boardQuerySchema,
  boardSchema,
  boardExamSchema,
  createRoomSchema,
  errorBodySchema,
  EXAMINER_ROLES,
  roomActionSchema,
  roomListQuerySchema,
  roomOccurrenceSchema,
  roomSchema,
  ROLES,
  stationInputSchema,
  unplacedQuerySchema,
  updateRoomSchema,
  updateStationSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FileStorage } from '../../lib/file-storage';
import { currentUser } from '../../lib/current-user';
import {
  addStation,
  createRoom,
  editRoom,
  editStation,
  getRoom,
  searchRooms,
  type ExamRoomDeps,
} from './exam-rooms.service';
import { getBoard, listExamsWithoutRoom } from './room-board.service';
import { actOnRoomExam, recordRoomOccurrence } from './room-actions.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const MANAGERS = ['ADMIN', 'ROOM_INSPECTOR'] as const;
const tags = ['exam-rooms'];
const roomParams = z.object({ id: z.uuid('Sala inválida.') });
const stationParams = roomParams.extend({ stationId: z.uuid('Estação inválida.') });
const examParams = roomParams.extend({ examId: z.uuid('Exame inválido.') });

export function examRoomRoutes(
  deps: ExamRoomDeps & {
    files: FileStorage;
    /** Photos stored, reported after the commit (the `face-read` queue). */
    photosStored?: (photoIds: readonly string[]) => void;
  },
) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/ExamRoom',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary:
            'Salas de prova da unidade (de um posto, quando informado), com estações e custódia',
          querystring: roomListQuerySchema,
          response: { 200: z.array(roomSchema), ...errors },
        },
      },
      async (request) => searchRooms(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/ExamRoom/unplaced',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary: 'Exames do posto no dia cuja sala nenhuma sala cadastrada nomeia',
          querystring: unplacedQuerySchema,
          response: { 200: z.array(boardExamSchema), ...errors },
        },
      },
      async (request) => listExamsWithoutRoom(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/ExamRoom/:id',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary: 'Uma sala de prova',
          params: roomParams,
          response: { 200: roomSchema, ...errors },
        },
      },
      async (request) => getRoom(deps, currentUser(request), request.params.id),
    );

    routes.get(
      '/api/ExamRoom/:id/board',
      {
        config: { access: ROLES },
        schema: {
          tags,
          summary: 'O quadro das estações da sala no dia (hoje, por padrão)',
          params: roomParams,
          querystring: boardQuerySchema,
          response: { 200: boardSchema, ...errors },
        },
      },
      async (request) =>
        getBoard(deps, currentUser(request), { id: request.params.id, day: request.query.day }),
    );

    routes.post(
      '/api/ExamRoom/:id/exams/:examId/action',
      {
        config: { access: [...EXAMINER_ROLES, 'ADMIN'] },
        schema: {
          tags,
          summary:
            'Ação do examinador num exame da sala: ausência, interromper, retomar, finalizar e enviar o resultado',
          params: examParams,
          body: roomActionSchema,
          response: { 200: boardExamSchema, ...errors },
        },
      },
      async (request) =>
        actOnRoomExam(deps, currentUser(request), {
          roomId: request.params.id,
          examId: request.params.examId,
          action: request.body.action,
        }),
    );

    routes.post(
      '/api/ExamRoom/:id/exams/:examId/occurrences',
      {
        config: { access: [...EXAMINER_ROLES, 'ADMIN'] },
        bodyLimit: 8 * 1024 * 1024,
        schema: {
          tags,
          summary: 'Registrar uma ocorrência num exame da sala, com foto opcional',
          params: examParams,
          body: roomOccurrenceSchema,
          response: { 201: boardExamSchema, ...errors, 413: errorBodySchema, 415: errorBodySchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(
          await recordRoomOccurrence(deps, currentUser(request), {
            roomId: request.params.id,
            examId: request.params.examId,
            ...request.body,
          }),
        ),
    );

    routes.post(
      '/api/ExamRoom',
      {
        config: { access: MANAGERS },
        schema: {
          tags,
          summary: 'Criar uma sala de prova num posto, com as suas estações',
          body: createRoomSchema,
          response: { 201: roomSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createRoom(deps, currentUser(request), request.body)),
    );

    routes.put(
      '/api/ExamRoom/:id',
      {
        config: { access: MANAGERS },
        schema: {
          tags,
          summary: 'Editar, desativar ou reativar uma sala',
          params: roomParams,
          body: updateRoomSchema,
          response: { 200: roomSchema, ...errors },
        },
      },
      async (request) => editRoom(deps, currentUser(request), request.params.id, request.body),
    );

    routes.post(
      '/api/ExamRoom/:id/stations',
      {
        config: { access: MANAGERS },
        schema: {
          tags,
          summary: 'Acrescentar uma estação à sala',
          params: roomParams,
          body: stationInputSchema,
          response: { 201: roomSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await addStation(deps, currentUser(request), request.params.id, request.body)),
    );

    routes.put(
      '/api/ExamRoom/:id/stations/:stationId',
      {
        config: { access: MANAGERS },
        schema: {
          tags,
          summary: 'Editar, mover, desativar ou reativar uma estação',
          params: stationParams,
          body: updateStationSchema,
          response: { 200: roomSchema, ...errors },
        },
      },
      async (request) =>
        editStation(
          deps,
          currentUser(request),
          request.params.id,
          request.params.stationId,
          request.body,
        ),
    );
  };
}
