import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import {
  devPhoto,
  distantFace,
  editedDevPhoto,
  photoWithoutFace,
  sideBySide,
  webcamFrame,
} from '../../test/faces/captures';
import { listFixtures } from '../../test/faces/fixtures';
import { genuineTake, otherFaceTake } from '../../test/faces/synthetic-takes';
import { devSource } from '../../test/faces/takes';
import { liveTensorCount } from '../../test/faces/tensors';
import { checkTake } from './challenge-check';
import { FRAME_THUMBNAIL_SIDE } from './engine-core.mjs';
import {
  compareWithEnrolment,
  cosineDistance,
  descriptorDistance,
  DESCRIPTOR_LENGTH,
  fusedDistance,
  FUSION,
  templateOf,
  type Descriptor,
} from './descriptor';
import {
  DEFAULT_FACE_CORE_OPTIONS,
  DEFAULT_FACE_MATCH_THRESHOLD,
  type FaceAnalysis,
} from './face-engine';
import { FacePool } from './face-pool';
import { faceEngineSkipReason } from '../../test/faces/engine-tier';

const skipReason = faceEngineSkipReason('face engine tests');

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected the engine to refuse the capture');
}

describe.skipIf(Boolean(skipReason))(`face engine (in process) ${skipReason}`.trim(), () => {
  let engine: FacePool;
  const enrolled = new Map<string, FaceAnalysis>();
  const enrol = async (file: string) => {
    const known = enrolled.get(file);
    if (known) return known;
    const face = await engine.analyze(await devPhoto(file));
    enrolled.set(file, face);
    return face;
  };

  beforeAll(async () => {
    engine = new FacePool({ inProcess: true });
    await engine.ready();
  });

  afterAll(async () => {
    await engine?.close();
  });

  it('uses the calibrated threshold unless configured', () => {
    expect(engine.threshold).toBe(DEFAULT_FACE_MATCH_THRESHOLD);
    expect(new FacePool({ inProcess: true, matchThreshold: 0.5 }).threshold).toBe(0.5);
    expect(() => new FacePool({ inProcess: true, matchThreshold: 0 })).toThrow(TypeError);
  });

  it('enrols p01 and verifies another capture of p01 as a match', async () => {
    const template = await enrol('p01-1.jpg');
    expect(template.descriptor).toHaveLength(128);
    expect(template.mobileDescriptor).toHaveLength(192);
    expect(template.landmarks).toHaveLength(136);
    const stored = templateOf(template);
    expect(stored).toHaveLength(DESCRIPTOR_LENGTH);
    expect(DESCRIPTOR_LENGTH).toBe(320);
    const probe = await engine.analyze(await devPhoto('p01-2.jpg'));
    const result = engine.compare(stored, probe);
    expect(engine.compare(template, probe).distance).toBeCloseTo(result.distance, 12);
    expect(result.match).toBe(true);
    expect(result.distance).toBeLessThan(result.threshold);
    expect(result.similarity).toBeCloseTo(1 - result.distance, 10);
    expect(result.threshold).toBe(DEFAULT_FACE_MATCH_THRESHOLD);
  });

  it('verifies a webcam-sized frame of p01 against a p01 template', async () => {
    const template = await enrol('p01-3.jpg');
    const probe = await engine.analyze(await webcamFrame('p01-5.jpg'));
    expect(engine.compare(template, probe).match).toBe(true);
  });

  it('does not match p01 with another person (p03)', async () => {
    const result = engine.compare(await enrol('p01-1.jpg'), await enrol('p03-1.jpg'));
    expect(result.match).toBe(false);
    expect(result.distance).toBeGreaterThanOrEqual(result.threshold);
  });

  it('rejects the dev impostor pairs each model alone came closest on', async () => {
    // p05-1 was accepted for p01-1 by engine v1 (face-api alone, 0.55 < 0.57);
    // p03-1 is MobileFaceNet's closest impostor of p02-1 (cosine 0.454).
    for (const [a, b] of [
      ['p01-1.jpg', 'p05-1.jpg'],
      ['p02-1.jpg', 'p03-1.jpg'],
    ] as const) {
      const fa = await enrol(a);
      const fb = await enrol(b);
      const result = engine.compare(fa, fb);
      expect(result.match, `${a} x ${b}`).toBe(false);
      expect(result.distance).toBeGreaterThan(0.7);
      expect(result.distance).toBeCloseTo(
        fusedDistance(
          descriptorDistance(fa.descriptor, fb.descriptor),
          cosineDistance(fa.mobileDescriptor, fb.mobileDescriptor),
          FUSION,
        ),
        12,
      );
    }
    expect(
      descriptorDistance(
        (await enrol('p01-1.jpg')).descriptor,
        (await enrol('p05-1.jpg')).descriptor,
      ),
    ).toBeLessThan(0.57);
  });

  it('decides a multi-capture enrolment on the mean over its captures', async () => {
    const enrolled = [];
    for (const file of ['p01-1.jpg', 'p01-2.jpg', 'p01-3.jpg']) {
      enrolled.push(templateOf(await enrol(file)));
    }
    const compare = (a: Descriptor | FaceAnalysis, b: Descriptor) => engine.compare(a, b);
    const genuine = compareWithEnrolment(compare, await enrol('p01-4.jpg'), enrolled);
    expect(genuine.captures).toHaveLength(3);
    expect(genuine.distance).toBeCloseTo(genuine.captures.reduce((a, b) => a + b, 0) / 3, 12);
    expect(genuine.match).toBe(true);
    for (const impostor of ['p05-1.jpg', 'p02-1.jpg', 'p04-1.jpg']) {
      const result = compareWithEnrolment(compare, await enrol(impostor), enrolled);
      expect(result.match, impostor).toBe(false);
    }
  });

  it('lets every dev capture of p01 and p02 through the quality gates', async () => {
    const subjects = listFixtures('dev').filter((p) => p.person === 'p01' || p.person === 'p02');
    expect(subjects.length).toBeGreaterThanOrEqual(10);
    for (const photo of subjects) {
      const { quality } = await enrol(photo.file);
      expect(quality.faceSizePx).toBeGreaterThan(1.5 * DEFAULT_FACE_CORE_OPTIONS.minFaceSizePx);
      expect(quality.luminance).toBeGreaterThan(DEFAULT_FACE_CORE_OPTIONS.brightenFacesTo);
      expect(quality.sharpness).toBeGreaterThan(3 * DEFAULT_FACE_CORE_OPTIONS.minSharpness);
    }
  });

  it('reports FACE_NOT_FOUND for a photo without a face', async () => {
    const error = await failure(engine.analyze(await photoWithoutFace('p01-1.jpg')));
    expect(error.code).toBe('FACE_NOT_FOUND');
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/^Nenhum rosto foi encontrado na imagem\./);
  });

  it('reports FACE_MULTIPLE for a capture with two people', async () => {
    // No dev photo shows several people, so two are composed side by side.
    const error = await failure(engine.analyze(await sideBySide('p01-1.jpg', 'p04-1.jpg')));
    expect(error.code).toBe('FACE_MULTIPLE');
    expect(error.message).toMatch(/sozinho/);
  });

  it('reports FACE_TOO_SMALL for a face far from the camera', async () => {
    // The photo 70 px wide on a 640x400 frame: a face of about 21 px.
    const error = await failure(engine.analyze(await distantFace('p01-1.jpg', 70)));
    expect(error.code).toBe('FACE_TOO_SMALL');
    expect(error.message).toMatch(/Aproxime-se da câmera/);
  });

  it('reports FACE_TOO_DARK for an underexposed capture', async () => {
    // About 21 of 255 on the face, where it is still found.
    const dark = await editedDevPhoto('p01-1.jpg', (image) => image.linear(0.15, 0));
    const error = await failure(engine.analyze(dark));
    expect(error.code).toBe('FACE_TOO_DARK');
    expect(error.message).toMatch(/iluminado/);
  });

  it('brightens an under-exposed face, and only that, before the descriptor', async () => {
    const uncorrected = new FacePool({ inProcess: true, brightenFacesTo: 0 });
    const template = await enrol('p01-1.jpg');
    // A well-lit face is left exactly as it was.
    const lit = await devPhoto('p01-1.jpg');
    expect((await uncorrected.analyze(lit)).descriptor).toEqual(template.descriptor);
    // A dim capture of the same face lands nearer its own template corrected.
    const dim = await editedDevPhoto('p01-1.jpg', (image) => image.linear(0.3, 0));
    const corrected = engine.compare(template, await engine.analyze(dim));
    const plain = engine.compare(template, await uncorrected.analyze(dim));
    expect(corrected.distance).toBeLessThan(plain.distance);
    expect(corrected.match).toBe(true);
  });

  it('reports FACE_BLURRED for a blurred capture', async () => {
    const blurred = await editedDevPhoto('p01-1.jpg', (image) => image.blur(8));
    const error = await failure(engine.analyze(blurred));
    expect(error.code).toBe('FACE_BLURRED');
    expect(error.message).toMatch(/desfocada/);
  });

  it('reports IMAGE_INVALID for bytes that do not decode', async () => {
    const error = await failure(engine.analyze(Buffer.from('não é uma imagem')));
    expect(error.code).toBe('IMAGE_INVALID');
  });

  it('refuses a malformed template instead of calling it a non-match', async () => {
    const face = await enrol('p01-1.jpg');
    expect(() => engine.compare(templateOf(face).slice(0, 319), face)).toThrow(
      expect.objectContaining({ code: 'FACE_TEMPLATE_INVALID' }),
    );
    // A v1 entry (face-api's 128 numbers alone) is not comparable: it is upgraded first.
    expect(() => engine.compare(face.descriptor, face)).toThrow(
      expect.objectContaining({ code: 'FACE_TEMPLATE_INVALID' }),
    );
    const poisoned = templateOf(face);
    poisoned[5] = Number.NaN;
    expect(() => engine.compare(poisoned, face)).toThrow(
      expect.objectContaining({ code: 'FACE_TEMPLATE_INVALID' }),
    );
  });

  it('frees every tensor it allocates', async () => {
    const image = await devPhoto('p02-1.jpg');
    await engine.analyze(image);
    const before = liveTensorCount();
    await engine.analyze(image);
    await failure(engine.analyze(await photoWithoutFace('p01-3.jpg')));
    // An under-exposed face takes the brightening path.
    await engine.analyze(await editedDevPhoto('p02-1.jpg', (image) => image.linear(0.4, 0)));
    expect(liveTensorCount()).toBe(before);
  });

  describe("the challenge check on the engine's analyses", () => {
    /** The challenge check reads the analyses of a take's pictures; it decodes nothing itself. */
    const analyses = (pictures: Buffer[]) => Promise.all(pictures.map((p) => engine.analyze(p)));
    const source = (photo: string) => devSource(engine, photo);

    it('gives each analysis the thumbnail of its frame', async () => {
      const face = await engine.analyze(await webcamFrame('p01-1.jpg'));
      expect(face.thumbnail).toBeInstanceOf(Uint8Array);
      expect(face.thumbnail).toHaveLength(FRAME_THUMBNAIL_SIDE * FRAME_THUMBNAIL_SIDE);
    });

    it('passes a take where the head turns as asked, in one continuous take', async () => {
      const steps = ['left', 'up'] as const;
      const result = checkTake(
        steps,
        await analyses(await genuineTake(await source('p01-1.jpg'), steps)),
      );
      expect(result.failure).toBeNull();
      expect(result.checks).toEqual({
        sameFace: true,
        continuous: true,
        followed: true,
        depth: true,
      });
      expect(result.passed).toBe(true);
      expect(result.details.poses).toHaveLength(3);
      expect(result.details.poses[0]!.yaw).toBeGreaterThan(12);
      expect(result.details.poses[1]!.pitch).toBeGreaterThan(9);
    });

    it('fails a take of one frame sent for every picture', async () => {
      const face = await engine.analyze(await webcamFrame('p01-1.jpg'));
      const result = checkTake(['right', 'down'], [face, face, face, face]);
      expect(result.passed).toBe(false);
      expect(result.checks).toMatchObject({ sameFace: true, followed: false });
      expect(result.failure).toEqual({
        code: 'FACE_CHALLENGE_NOT_FOLLOWED',
        step: 1,
        move: 'right',
      });
    });

    it('fails a take with another person in the middle', async () => {
      const steps = ['right', 'left'] as const;
      const pictures = await otherFaceTake(
        await source('p01-1.jpg'),
        await source('p04-1.jpg'),
        steps,
      );
      const result = checkTake(steps, await analyses(pictures));
      expect(result.passed).toBe(false);
      expect(result.checks.sameFace).toBe(false);
      expect(result.failure?.code).toBe('FACE_CHALLENGE_OTHER_FACE');
    });

    it('fails a take with a cut to another photograph', async () => {
      const steps = ['left', 'up'] as const;
      const [, ...rest] = await genuineTake(await source('p01-7.jpg'), steps);
      const result = checkTake(steps, await analyses([await devPhoto('p01-3.jpg'), ...rest]));
      expect(result.checks.continuous).toBe(false);
      expect(result.failure?.code).toBe('FACE_CHALLENGE_CUT');
      expect(result.passed).toBe(false);
    });

    it('needs one picture per move and two more', async () => {
      const face = await engine.analyze(await webcamFrame('p01-1.jpg'));
      expect(() => checkTake(['left', 'up'], [face, face, face])).toThrow(TypeError);
      expect(() => checkTake(['left', 'up'], [face, face, face, face, face])).toThrow(TypeError);
    });
  });
});
