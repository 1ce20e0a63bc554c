/**
 * The app on the real face engine (in this process), for the suites that
 * verify the same people many times on purpose: the rate limits have their
 * own test, so here they are out of the way.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FaceMove } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { FaceService } from '../src/biometrics/face-engine';
import { createFaceService } from '../src/biometrics/face-pool';
import { countingFaceService } from './faces/counting-face-service';
import { rememberingFaceService } from './faces/takes';
import { buildTestApp, type BuildTestAppOptions, type TestApp } from './helper';

/** Verifications without a limit that a suite would reach. */
const manyVerifications = () => ({
  verifyPerCpf: { limit: 1000 },
  verifyPerCpfAll: { limit: 1000 },
  verifyPerUser: { limit: 1000 },
});

/**
 * The engine and an app on it (`options` on top of the limits above); the
 * app reads again the analyses of the takes the tests checked before
 * sending them (takes.ts, rememberingFaceService).
 */
export async function buildFaceApp(
  options: BuildTestAppOptions = {},
): Promise<{ face: FaceService; t: TestApp }> {
  const face = await createFaceService({ inProcess: true });
  const t = await buildTestApp({
    faceService: rememberingFaceService(face),
    ...options,
    rateLimits: { ...manyVerifications(), ...options.rateLimits },
  });
  return { face, t };
}

/**
 * The engine and an app on it with every engine call counted (every result
 * is still the engine's own), challenges without a limit either, and files
 * of its own: "nothing stored" is counted there, while other test files
 * store theirs.
 */
export async function buildCountedFaceApp(): Promise<{
  face: FaceService;
  counting: ReturnType<typeof countingFaceService>;
  t: TestApp;
}> {
  const face = await createFaceService({ inProcess: true });
  const counting = countingFaceService(rememberingFaceService(face));
  const t = await buildTestApp({
    config: {
      fileStorage: { kind: 'disk', root: mkdtempSync(path.join(tmpdir(), 'faces-')) },
    },
    faceService: counting.service,
    rateLimits: { ...manyVerifications(), challengePerUser: { limit: 1000 } },
  });
  return { face, counting, t };
}

/** `POST api/BiopassID/Create`: `auth` enrols `cpf` with a take (the fields of a challenge answered). */
export function enrolFace(
  app: FastifyInstance,
  auth: { authorization: string },
  cpf: string,
  take: object,
) {
  return app.inject({
    method: 'POST',
    url: '/api/BiopassID/Create',
    headers: auth,
    payload: { cpf, ...take },
  });
}

/** `POST api/BiopassID/Challenge` as `auth` for `request` (expected: 201); the challenge. */
export async function askChallenge(
  app: FastifyInstance,
  auth: Record<string, string>,
  request: object,
) {
  const challenge = await app.inject({
    method: 'POST',
    url: '/api/BiopassID/Challenge',
    headers: auth,
    payload: request,
  });
  expect(challenge.statusCode, challenge.body).toBe(201);
  return challenge.json() as { challengeId: string; steps: FaceMove[] };
}
