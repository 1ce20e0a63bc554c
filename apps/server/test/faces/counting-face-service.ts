/**
 * A counting wrapper of the real face engine, for tests that check how many
 * passes a request makes over each picture. Every call goes to the engine
 * untouched (nothing is mocked, every result is the engine's own); the
 * wrapper writes down which picture each analysis read and, through the
 * test-only observer of image.ts, every picture decoded and re-encoded.
 */
import { createHash } from 'node:crypto';
import type { FaceService } from '../../src/biometrics/face-engine';
import { observeNormalisation } from '../../src/biometrics/image';
import { withAnalyze } from './wrap-face-service';

const fingerprint = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export type Passes = {
  /** One entry per decode and re-encode of an upload: the fingerprint of the JPEG it made. */
  normalised: string[];
  /** One entry per analysis: the fingerprint of the picture analysed. */
  analysed: string[];
};

export function countingFaceService(face: FaceService): {
  service: FaceService;
  passes: Passes;
  /** Forgets what was counted so far. */
  reset: () => void;
  /** Stops observing the image module. */
  stop: () => void;
} {
  const passes: Passes = { normalised: [], analysed: [] };
  const stop = observeNormalisation((image) => passes.normalised.push(fingerprint(image.jpeg)));
  const service = withAnalyze(face, (image) => {
    passes.analysed.push(fingerprint(image));
    return face.analyze(image);
  });
  return {
    service,
    passes,
    reset: () => {
      passes.normalised.length = 0;
      passes.analysed.length = 0;
    },
    stop,
  };
}

/** How many times each fingerprint occurs. */
export function tally(fingerprints: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of fingerprints) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}
