/**
 * The real face engine with its `analyze` wrapped (counting-face-service.ts,
 * takes.ts): every other call goes to the engine untouched.
 */
import type { FaceService } from '../../src/biometrics/face-engine';

export function withAnalyze(face: FaceService, analyze: FaceService['analyze']): FaceService {
  return {
    get threshold() {
      return face.threshold;
    },
    get descriptorVersion() {
      return face.descriptorVersion;
    },
    thresholdFor: (federativeUnit) => face.thresholdFor(federativeUnit),
    ready: () => face.ready(),
    analyze,
    compare: (a, b, threshold) => face.compare(a, b, threshold),
    queueSize: () => face.queueSize?.() ?? 0,
    observe: (observer) => face.observe?.(observer) ?? (() => undefined),
    close: () => face.close(),
  };
}
