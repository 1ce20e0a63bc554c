/**
 * The face engine is heavy to start (models in every worker): the server
 * warms it at start (main.ts), while an app built without one (tests that do
 * not touch faces, scripts) creates it on first use only.
 */
import type { BurstResult } from '../../biometrics/liveness';
import {
  compareFaces,
  type Descriptor,
  type FaceAnalysis,
  type FaceComparison,
  type FaceService,
} from '../../biometrics/face-engine';

export function lazyFaceService(
  create: () => Promise<FaceService>,
  threshold: number,
  descriptorVersion: string,
): FaceService {
  let service: Promise<FaceService> | undefined;
  const get = () => {
    service ??= create().then(
      (created) => {
        // Templates are stamped with the version announced here: it must be the engine's.
        if (created.descriptorVersion !== descriptorVersion) {
          void created.close();
          throw new Error(
            `Versão do descritor divergente: ${created.descriptorVersion} != ${descriptorVersion}`,
          );
        }
        return created;
      },
      (error: unknown) => {
        service = undefined;
        throw error;
      },
    );
    return service;
  };
  return {
    threshold,
    descriptorVersion,
    ready: async () => {
      await (await get()).ready();
    },
    analyze: async (image: Uint8Array): Promise<FaceAnalysis> => (await get()).analyze(image),
    compare: (a: Descriptor | FaceAnalysis, b: Descriptor | FaceAnalysis): FaceComparison =>
      compareFaces(a, b, threshold),
    checkBurst: async (frames: Uint8Array[]): Promise<BurstResult> =>
      (await get()).checkBurst(frames),
    close: async () => {
      if (service) await (await service).close().catch(() => undefined);
    },
  };
}
