import { describe, expect, it } from 'vitest';
import {
  BIOPASS_ERRORS,
  FACE_BURST_MAX_FRAMES,
  FACE_BURST_MAX_PICTURES,
  FACE_BURST_MIN_FRAMES,
  FACE_BURST_MIN_PICTURES,
  FACE_CAPTURE_BURST_PICTURES,
  FACE_CAPTURE_MAX_CHARS,
  FACE_VERIFY_BODY_LIMIT,
  isCallerUnit,
} from './biometrics';

describe('face verification caps', () => {
  it('image and frames together form the burst: frames never count image', () => {
    expect(FACE_BURST_MIN_FRAMES).toBe(FACE_BURST_MIN_PICTURES - 1);
    expect(FACE_BURST_MAX_FRAMES).toBe(FACE_BURST_MAX_PICTURES - 1);
    expect(FACE_CAPTURE_BURST_PICTURES).toBeGreaterThanOrEqual(FACE_BURST_MIN_PICTURES);
    expect(FACE_CAPTURE_BURST_PICTURES).toBeLessThanOrEqual(FACE_BURST_MAX_PICTURES);
  });

  it('the body limit holds the largest burst, each picture once, and no more than one extra picture', () => {
    expect(FACE_VERIFY_BODY_LIMIT).toBeGreaterThan(
      FACE_BURST_MAX_PICTURES * FACE_CAPTURE_MAX_CHARS,
    );
    expect(FACE_VERIFY_BODY_LIMIT).toBeLessThan(
      (FACE_BURST_MAX_PICTURES + 1) * FACE_CAPTURE_MAX_CHARS,
    );
  });
});

describe('uf of a BiopassID request', () => {
  it("is the caller's unit, however written, or absent", () => {
    for (const uf of ['DF', 'df', ' DF ', undefined, null])
      expect(isCallerUnit(uf, 'DF')).toBe(true);
  });

  it('another unit, valid or not, is not', () => {
    for (const uf of ['SP', 'XX', '', 'DFX']) expect(isCallerUnit(uf, 'DF')).toBe(false);
    expect(BIOPASS_ERRORS.FACE_UNIT_MISMATCH.status).toBe(403);
  });
});
