/** Helpers for tests of exams and the integration API. */
import type { BatchResult } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';

export async function createApiKeyFor(
  app: FastifyInstance,
  auth: { authorization: string },
  name = 'Sistema de provas',
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/Integration/keys',
    headers: auth,
    payload: { name },
  });
  if (response.statusCode !== 201)
    throw new Error(`chave: ${response.statusCode} ${response.body}`);
  return response.json() as { key: string; apiKey: { id: string; prefix: string } };
}

/** `POST api/SchedulingLocal`: a post of the caller's unit (the response, whatever it is). */
export function createPost(
  app: FastifyInstance,
  auth: { authorization: string },
  identifier: string,
  description = `Posto ${identifier}`,
) {
  return app.inject({
    method: 'POST',
    url: '/api/SchedulingLocal',
    headers: auth,
    payload: { identifier, description },
  });
}

/** `POST api/ExamRoom`: a room (S1, "Sala 1" unless told) at a post of the caller's unit (the response, whatever it is). */
export function createRoom(
  app: FastifyInstance,
  auth: { authorization: string },
  schedulingLocal: string,
  room: { code?: string; name?: string; stations?: Array<{ code: string; position: number }> } = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/ExamRoom',
    headers: auth,
    payload: { schedulingLocal, code: 'S1', name: 'Sala 1', ...room },
  });
}

/** `POST api/Integration/exams` with an integration key: the response, whatever it is. */
export function postExams(app: FastifyInstance, apiKey: string, exams: object[]) {
  return app.inject({
    method: 'POST',
    url: '/api/Integration/exams',
    headers: { 'x-api-key': apiKey },
    payload: { exams },
  });
}

/** `POST api/Integration/exams/:schedulingId/photos` with an integration key: the response, whatever it is. */
export function postPhoto(
  app: FastifyInstance,
  apiKey: string,
  schedulingId: string,
  photo: { image: string; capturedAt: string },
) {
  return app.inject({
    method: 'POST',
    url: `/api/Integration/exams/${schedulingId}/photos`,
    headers: { 'x-api-key': apiKey },
    payload: photo,
  });
}

/** `POST api/Integration/exams` with an integration key; anything but 200 fails the test. */
export async function pushExams(app: FastifyInstance, apiKey: string, exams: object[]) {
  const response = await postExams(app, apiKey, exams);
  if (response.statusCode !== 200)
    throw new Error(`exames: ${response.statusCode} ${response.body}`);
  return response.json() as BatchResult;
}

let counter = 0;

export function examPayload(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    schedulingId: `AG-${Date.now()}-${counter}`,
    candidate: { name: 'Candidato de Teste', cpf: '529.982.247-25', renach: 'DF123456789' },
    schedulingDate: '2026-11-20T10:00:00-03:00',
    status: 'scheduled',
    metadata: { schedulingLocal: 'DF.POSTO01-S1' },
    room: 'Sala 1',
    station: 'Estação 01',
    ...overrides,
  };
}

/** A finished exam waiting for audit: done, its result in analysis. */
export function awaitingAuditPayload(overrides: Record<string, unknown> = {}) {
  return examPayload({ status: 'done', result: 'in_analysis', ...overrides });
}

/** A real JPEG picture (a gradient with a shape), `size` pixels wide. */
export async function sampleJpeg(size = 320, seed = 0): Promise<Buffer> {
  const channels = 3;
  const pixels = Buffer.alloc(size * size * channels);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const offset = (y * size + x) * channels;
      const inside = (x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 4) ** 2;
      pixels[offset] = inside ? 220 : (x + seed) % 256;
      pixels[offset + 1] = inside ? 180 : (y * 2) % 256;
      pixels[offset + 2] = inside ? 150 : 90;
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels } })
    .jpeg({ quality: 85 })
    .toBuffer();
}
