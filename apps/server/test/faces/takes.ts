/**
 * Takes for the server tests: ask the API for a challenge, then
 * answer it with a genuine take of a dev photo (its head turning as asked,
 * synthetic-takes.ts) or with an attack. Sources are framed once per photo
 * and engine, and cached for the test file.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import type { FaceChallenge, FaceChallengeRequest, FaceMove } from '@exame/shared';
import { checkTake } from '../../src/biometrics/challenge-check';
import type { FaceAnalysis, FaceService } from '../../src/biometrics/face-engine';
import { validateAndNormalizeImage } from '../../src/biometrics/image';
import { fixturePath } from './fixtures';
import { genuineTake, loadSource, type Source } from './synthetic-takes';
import { withAnalyze } from './wrap-face-service';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the takes the face check accepted are noted for the run (test/global-setup.ts). */
    faceTakeCache: string;
  }
}

const b64 = (buffer: Buffer) => buffer.toString('base64');

type Analyzer = Pick<FaceService, 'analyze'>;

const sources = new Map<string, Promise<Source | null>>();

/** The dev photo framed as a webcam picture, with the engine's landmarks (null: no usable face). */
export function devSource(face: Analyzer, photo: string): Promise<Source> {
  let found = sources.get(photo);
  if (!found) {
    found = loadSource(fixturePath('dev', photo), face);
    sources.set(photo, found);
  }
  return found.then((source) => {
    if (!source) throw new Error(`${photo}: sem rosto utilizável para uma captura de teste`);
    return source;
  });
}

/** The pictures of a take as an API body carries them: `image` first, `frames` the rest. */
export function asBody(pictures: readonly Buffer[]): { image: string; frames: string[] } {
  const [image, ...frames] = pictures.map(b64);
  if (!image) throw new Error('asBody: captura vazia');
  return { image, frames };
}

/**
 * Which attempt of the generator the check accepted, per photo, steps, seed
 * and engine (its descriptor version): the generator and the engine are
 * deterministic, so a take once accepted is accepted again, and only the
 * server's own check needs to analyse it. Kept in memory and, in the server
 * suites, in a folder of the run (test/global-setup.ts) that both test
 * workers share; an engine without a descriptor version (a test's stand-in)
 * is never noted.
 */
const acceptedAttempts = (() => {
  const memory = new Map<string, number>();
  const folder = (): string | undefined => {
    try {
      return inject('faceTakeCache') || undefined;
    } catch {
      return undefined;
    }
  };
  return {
    note(face: Analyzer, photo: string, steps: readonly FaceMove[], seed: number) {
      const version = (face as Partial<FaceService>).descriptorVersion;
      if (typeof version !== 'string') return undefined;
      const key = createHash('sha256')
        .update([version, photo, steps.join(','), seed].join('|'))
        .digest('hex');
      const dir = folder();
      const file = dir ? path.join(dir, key) : undefined;
      return {
        read(): number | undefined {
          if (memory.has(key)) return memory.get(key);
          if (!file || !fs.existsSync(file)) return undefined;
          const attempt = Number(fs.readFileSync(file, 'utf8'));
          if (!Number.isInteger(attempt)) return undefined;
          memory.set(key, attempt);
          return attempt;
        },
        write(attempt: number) {
          memory.set(key, attempt);
          if (!file) return;
          // Written whole, then renamed: the other worker never reads half a note.
          const partial = `${file}.${process.pid}.partial`;
          fs.writeFileSync(partial, String(attempt));
          fs.renameSync(partial, file);
        },
      };
    },
  };
})();

/**
 * A genuine take of a dev photo for `steps` that the take check accepts.
 * Synthetic takes are refused now and then, as real ones are (bench:liveness
 * measures how often: BPCER); a test whose subject is not that check needs a
 * take that passes, so the generator tries other seeds, judging each take
 * with the very check the server runs, on the same engine. Tests of the
 * check itself use genuineTake with fixed steps and seeds instead.
 */
export async function acceptedGenuineTake(
  face: Analyzer,
  photo: string,
  steps: readonly FaceMove[],
  seed = 1,
): Promise<Buffer[]> {
  const source = await devSource(face, photo);
  const noted = acceptedAttempts.note(face, photo, steps, seed);
  const known = noted?.read();
  if (known !== undefined) return genuineTake(source, steps, { seed: seed + 1000 * known });
  for (let attempt = 0; attempt < 8; attempt++) {
    const pictures = await genuineTake(source, steps, { seed: seed + 1000 * attempt });
    const analyses = await Promise.all(
      pictures.map(async (picture) => {
        try {
          return await analyseRemembered(face, (await validateAndNormalizeImage(picture)).jpeg);
        } catch {
          return null;
        }
      }),
    );
    const faces = analyses.filter((analysis) => analysis !== null);
    if (faces.length === pictures.length && checkTake(steps, faces).passed) {
      noted?.write(attempt);
      return pictures;
    }
  }
  throw new Error(`${photo}: nenhuma captura genuína aceita para ${steps.join(', ')}`);
}

/**
 * The engine's analyses of the pictures acceptedGenuineTake checked, by
 * engine (descriptor version) and picture fingerprint, for the process.
 */
const remembered = new Map<string, FaceAnalysis>();
const rememberKey = (face: Analyzer, jpeg: Uint8Array): string | undefined => {
  const version = (face as Partial<FaceService>).descriptorVersion;
  return typeof version === 'string'
    ? `${version}|${createHash('sha256').update(jpeg).digest('hex')}`
    : undefined;
};

async function analyseRemembered(face: Analyzer, jpeg: Uint8Array): Promise<FaceAnalysis> {
  const analysis = await face.analyze(jpeg);
  const key = rememberKey(face, jpeg);
  if (key) remembered.set(key, analysis);
  return analysis;
}

/**
 * `face` for an app under test whose takes come from acceptedGenuineTake: a
 * picture the engine analysed while the take was checked (the same bytes,
 * normalised the same way: image.ts is deterministic) gets that analysis
 * again instead of a second run of the engine on it; every other picture
 * goes to the engine. Every result is the engine's own. The check before
 * sending costs as much as the server's own pass, and a take the server
 * reads is almost always one that was just checked: this halves the face
 * work of the suites that send many takes.
 */
export function rememberingFaceService(face: FaceService): FaceService {
  return withAnalyze(face, async (image) => {
    const key = rememberKey(face, image);
    const known = key ? remembered.get(key) : undefined;
    return known ? { ...known } : face.analyze(image);
  });
}

/** The body fields of acceptedGenuineTake. */
export async function genuineBody(
  face: Analyzer,
  photo: string,
  steps: readonly FaceMove[],
  seed = 1,
): Promise<{ image: string; frames: string[] }> {
  return asBody(await acceptedGenuineTake(face, photo, steps, seed));
}

/** `POST api/BiopassID/Challenge` as `token`; the challenge (fails the test on anything but 201). */
export async function requestChallenge(
  app: FastifyInstance,
  token: string,
  body: FaceChallengeRequest,
): Promise<FaceChallenge> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/BiopassID/Challenge',
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
  if (response.statusCode !== 201) {
    throw new Error(`desafio recusado: ${response.statusCode} ${response.body}`);
  }
  return response.json<FaceChallenge>();
}

/**
 * A challenge for `body` answered by a genuine take of `photo`: the body
 * fields of a verification, an enrolment or a check-in capture.
 */
export async function answeredChallenge(
  app: FastifyInstance,
  face: Analyzer,
  token: string,
  body: FaceChallengeRequest,
  photo: string,
  seed = 1,
): Promise<{ challengeId: string; image: string; frames: string[]; steps: FaceMove[] }> {
  const challenge = await requestChallenge(app, token, body);
  return {
    challengeId: challenge.challengeId,
    steps: challenge.steps,
    ...(await genuineBody(face, photo, challenge.steps, seed)),
  };
}
