/**
 * The study-only descriptor variants (research/face/study-engine.mjs),
 * which the server never loads: the similarity fit behind the rotated chip,
 * and, on the dev photos, that every variant plugs into the production
 * pipeline, frees its tensors, and that the study's 3-crop box is the
 * engine's own descriptor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFace } from '../../apps/server/src/biometrics/engine-core.mjs';
import { descriptorDistance } from '../../apps/server/src/biometrics/descriptor';
import { DEFAULT_FACE_CORE_OPTIONS } from '../../apps/server/src/biometrics/face-engine';
import { FacePool } from '../../apps/server/src/biometrics/face-pool';
import { chipTransform, describeVariant } from './study-engine.mjs';
import { devPhoto } from '../../apps/server/test/faces/captures';
import { liveTensorCount } from '../../apps/server/test/faces/tensors';

describe('chipTransform', () => {
  it('recovers the rotation, scale and shift that placed a face in the image', () => {
    // The fit commutes with similarities: if arbitrary points P fit to T,
    // then S(T^-1(P)) must fit to S exactly, whatever P is.
    const angle = (20 * Math.PI) / 180;
    const truth = {
      a: 1.7 * Math.cos(angle),
      b: 1.7 * Math.sin(angle),
      tx: 210.5,
      ty: 95.25,
    };
    const chipPoints = Array.from({ length: 68 }, (_, i) => ({
      x: 20 + ((i * 37) % 110),
      y: 25 + ((i * 53) % 100),
    }));
    const identity = chipTransform(chipPoints);
    const toChip = (p: { x: number; y: number }) => {
      const det = identity.a * identity.a + identity.b * identity.b;
      const dx = p.x - identity.tx;
      const dy = p.y - identity.ty;
      return {
        x: (identity.a * dx + identity.b * dy) / det,
        y: (-identity.b * dx + identity.a * dy) / det,
      };
    };
    const imagePoints = chipPoints.map((p) => {
      const c = toChip(p);
      return {
        x: truth.a * c.x - truth.b * c.y + truth.tx,
        y: truth.b * c.x + truth.a * c.y + truth.ty,
      };
    });
    const fitted = chipTransform(imagePoints);
    expect(fitted.a).toBeCloseTo(truth.a, 6);
    expect(fitted.b).toBeCloseTo(truth.b, 6);
    expect(fitted.tx).toBeCloseTo(truth.tx, 4);
    expect(fitted.ty).toBeCloseTo(truth.ty, 4);
  });
});

const skipReason = process.env.TEST_DATABASE_URL
  ? 'SKIPPED: TEST_DATABASE_URL is set and the face engine does not use the database'
  : '';
if (skipReason) console.warn(`study engine tests ${skipReason}`);

describe.skipIf(Boolean(skipReason))(`study descriptor variants ${skipReason}`.trim(), () => {
  let engine: FacePool;
  beforeAll(async () => {
    engine = new FacePool({ inProcess: true });
    await engine.ready();
  });
  afterAll(async () => {
    await engine?.close();
  });

  const describeWith = async (image: Buffer, variant: Parameters<typeof describeVariant>[0]) => {
    const result = await analyzeFace(image, DEFAULT_FACE_CORE_OPTIONS, describeVariant(variant));
    if (!result.ok) throw new Error(result.code);
    return result.face.descriptor;
  };

  it("the study's 3-crop box is the engine's own descriptor", async () => {
    const image = await devPhoto('p02-1.jpg');
    const shipped = (await engine.analyze(image)).descriptor;
    const study = await describeWith(image, { alignment: 'box', crops: 3, mirror: false });
    study.forEach((value, i) => expect(value).toBeCloseTo(shipped[i] ?? NaN, 6));
  });

  it('frees every tensor on the rotated chip, mirror and 7-crop paths', async () => {
    const image = await devPhoto('p02-1.jpg');
    const variants = [
      { alignment: 'chip', crops: 1, mirror: true },
      { alignment: 'box', crops: 7, mirror: true },
    ] as const;
    for (const variant of variants) await describeWith(image, variant);
    const before = liveTensorCount();
    const shipped = await engine.analyze(image);
    for (const variant of variants) {
      const descriptor = await describeWith(image, variant);
      expect(descriptor).toHaveLength(128);
      // Still the same person as the shipped descriptor says.
      // (face-api's scale: the study variants have no MobileFaceNet part.)
      expect(descriptorDistance(descriptor, shipped.descriptor)).toBeLessThan(0.3);
    }
    expect(liveTensorCount()).toBe(before);
  });
});
