import { describe, expect, it } from 'vitest';
import {
  BIOPASS_ERRORS,
  FACE_BURST_MAX_FRAMES,
  FACE_BURST_MAX_PICTURES,
  FACE_BURST_MIN_FRAMES,
  FACE_BURST_MIN_PICTURES,
  FACE_CAPTURE_MAX_CHARS,
  FACE_VERIFY_BODY_LIMIT,
  isCallerUnit,
  SIMILARITY_LEVEL_LABELS,
  SIMILARITY_MEDIUM_MARGIN,
  similarityLevel,
} from './biometrics';
import {
  challengePictures,
  FACE_CHALLENGE_MAX_STEPS,
  FACE_CHALLENGE_MIN_STEPS,
} from './face-challenge';

describe('face verification caps', () => {
  it('image and frames together form the burst: frames never count image', () => {
    expect(FACE_BURST_MIN_FRAMES).toBe(FACE_BURST_MIN_PICTURES - 1);
    expect(FACE_BURST_MAX_FRAMES).toBe(FACE_BURST_MAX_PICTURES - 1);
    // A challenge of 2 or 3 movements: neutral, one picture per movement, neutral.
    expect(FACE_BURST_MIN_PICTURES).toBe(challengePictures(FACE_CHALLENGE_MIN_STEPS));
    expect(FACE_BURST_MAX_PICTURES).toBe(challengePictures(FACE_CHALLENGE_MAX_STEPS));
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

describe('similarity level of a fused distance', () => {
  it('alta under threshold - margin, média up to the threshold, baixa from the threshold on', () => {
    expect(SIMILARITY_MEDIUM_MARGIN).toBe(0.06);
    const t = 0.69;
    expect(similarityLevel(0, t)).toBe('alta');
    expect(similarityLevel(0.48, t)).toBe('alta');
    expect(similarityLevel(0.629, t)).toBe('alta');
    // The boundaries: threshold - margin is média, the threshold itself is baixa.
    expect(similarityLevel(t - SIMILARITY_MEDIUM_MARGIN, t)).toBe('média');
    expect(similarityLevel(0.66, t)).toBe('média');
    expect(similarityLevel(0.6899, t)).toBe('média');
    expect(similarityLevel(t, t)).toBe('baixa');
    expect(similarityLevel(0.703, t)).toBe('baixa');
    expect(similarityLevel(1.4, t)).toBe('baixa');
  });

  it("follows the unit's threshold and a margin given", () => {
    expect(similarityLevel(0.5, 0.62)).toBe('alta');
    expect(similarityLevel(0.58, 0.62)).toBe('média');
    expect(similarityLevel(0.62, 0.62)).toBe('baixa');
    expect(similarityLevel(0.6, 0.69)).toBe('alta');
    expect(similarityLevel(0.6, 0.69, 0.1)).toBe('média');
    expect(similarityLevel(0.6, 0.69, 0)).toBe('alta');
  });

  it('a distance that is not a number is never alike', () => {
    for (const distance of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(similarityLevel(distance, 0.69)).toBe('baixa');
    }
    expect(similarityLevel(Number.NEGATIVE_INFINITY, 0.69)).toBe('baixa');
  });

  it('each level has its pt-BR label', () => {
    expect(SIMILARITY_LEVEL_LABELS).toEqual({
      alta: 'Similaridade alta',
      média: 'Similaridade média',
      baixa: 'Similaridade baixa',
    });
  });
});
