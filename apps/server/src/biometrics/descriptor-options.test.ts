/**
 * Descriptor settings without fixture photos: option checks and the version
 * string stored with templates.
 */
import { describe, expect, it } from 'vitest';
import { BOX_CROPS, FACE_API_VERSION } from './engine-constants.mjs';
import type { FaceCoreOptions } from './engine-types';
import {
  DEFAULT_FACE_CORE_OPTIONS,
  descriptorVersionOf,
  faceApiDescriptorVersionOf,
  LEGACY_DESCRIPTOR_VERSION,
  resolveFaceOptions,
} from './face-engine';

describe('descriptor options', () => {
  it('refuses crop counts the engine does not have', () => {
    expect(BOX_CROPS).toHaveLength(3);
    for (const jitterCrops of [0, 4, 1.5, Number.NaN]) {
      expect(() => resolveFaceOptions({ jitterCrops }), String(jitterCrops)).toThrow(/jitterCrops/);
    }
    expect(resolveFaceOptions({}).core).toMatchObject({ jitterCrops: 3 });
    // The studies' variants are not options of the engine the server runs.
    expect(resolveFaceOptions({}).core).not.toHaveProperty('alignment');
    expect(resolveFaceOptions({}).core).not.toHaveProperty('mirrorAverage');
  });

  it('names every setting that changes a descriptor in the template version', () => {
    const current = descriptorVersionOf(DEFAULT_FACE_CORE_OPTIONS);
    expect(current).toBe(
      `face-api-${FACE_API_VERSION};align=box;crops=3;mirror=0;bright=100;` +
        'mobilefacenet-hm3.0.4-repaired;align5=arcface112;mirror=1',
    );
    // Engine v1 (face-api alone) templates carry the face-api part only, so they upgrade.
    expect(faceApiDescriptorVersionOf(DEFAULT_FACE_CORE_OPTIONS)).toBe(
      `face-api-${FACE_API_VERSION};align=box;crops=3;mirror=0;bright=100`,
    );
    expect(FACE_API_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(LEGACY_DESCRIPTOR_VERSION).toBe('face-api-1.7.15;align=box;crops=1;mirror=0;bright=100');
    const variants = [
      { ...DEFAULT_FACE_CORE_OPTIONS, jitterCrops: 1 },
      { ...DEFAULT_FACE_CORE_OPTIONS, jitterCrops: 2 },
      { ...DEFAULT_FACE_CORE_OPTIONS, brightenFacesTo: 0 },
    ].map((options) => descriptorVersionOf(options));
    expect(new Set([current, ...variants]).size).toBe(4);
    // Gates decide whether a face is used, not its descriptor: same version.
    const stricter: FaceCoreOptions = { ...DEFAULT_FACE_CORE_OPTIONS, minFaceSizePx: 40 };
    expect(descriptorVersionOf(stricter)).toBe(current);
  });
});
