/**
 * Descriptor settings without fixture photos: option checks, the version
 * string stored with templates, and the similarity fit behind the 'chip'
 * alignment that descriptor-study.ts compares.
 */
import { describe, expect, it } from 'vitest';
import { chipTransform, FACE_API_VERSION, type FaceCoreOptions } from './engine-core.mjs';
import {
  DEFAULT_FACE_CORE_OPTIONS,
  descriptorVersionOf,
  LEGACY_DESCRIPTOR_VERSION,
  resolveFaceOptions,
} from './face-engine';

describe('descriptor options', () => {
  it('refuses crop counts and alignments the engine does not have', () => {
    for (const jitterCrops of [0, 8, 1.5, Number.NaN]) {
      expect(() => resolveFaceOptions({ jitterCrops }), String(jitterCrops)).toThrow(/jitterCrops/);
    }
    expect(() => resolveFaceOptions({ alignment: 'rotated' as never })).toThrow(/alignment/);
    expect(resolveFaceOptions({}).core).toMatchObject({
      alignment: 'box',
      mirrorAverage: false,
      jitterCrops: 3,
    });
  });

  it('names every setting that changes a descriptor in the template version', () => {
    const current = descriptorVersionOf(DEFAULT_FACE_CORE_OPTIONS);
    expect(current).toBe(`face-api-${FACE_API_VERSION};align=box;crops=3;mirror=0;bright=100`);
    expect(FACE_API_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(LEGACY_DESCRIPTOR_VERSION).toBe('face-api-1.7.15;align=box;crops=1;mirror=0;bright=100');
    const variants = [
      { ...DEFAULT_FACE_CORE_OPTIONS, jitterCrops: 5 },
      { ...DEFAULT_FACE_CORE_OPTIONS, mirrorAverage: true },
      { ...DEFAULT_FACE_CORE_OPTIONS, alignment: 'chip' as const },
      { ...DEFAULT_FACE_CORE_OPTIONS, brightenFacesTo: 0 },
    ].map((options) => descriptorVersionOf(options));
    expect(new Set([current, ...variants]).size).toBe(5);
    // Gates decide whether a face is used, not its descriptor: same version.
    const stricter: FaceCoreOptions = { ...DEFAULT_FACE_CORE_OPTIONS, minFaceSizePx: 40 };
    expect(descriptorVersionOf(stricter)).toBe(current);
  });
});

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
