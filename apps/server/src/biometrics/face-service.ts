/**
 * The one way a server builds its face service from the configuration
 * (FACE_MATCH_THRESHOLD, FACE_MATCH_THRESHOLD_BY_UNIT, FACE_WORKERS, FACE_TIMEOUT_MS). The engine is heavy to start (the
 * models in every worker), so the service starts the pool on first use:
 * main.ts calls ready() before listening, so the first verification is not
 * slow, while an app built without a face service (tests that do not touch
 * faces, scripts) never starts one. A failed start is retried on next use.
 */
import type { AppConfig } from '../config/env';
import type { Descriptor, FaceComparison } from './descriptor';
import {
  compareFaces,
  descriptorVersionOf,
  resolveFaceOptions,
  thresholdOfUnit,
  type FaceAnalysis,
  type FaceService,
} from './face-engine';
import { createFaceService, type FacePoolOptions } from './face-pool';

export function faceServiceFromConfig(config: AppConfig['face']): FaceService {
  const options: FacePoolOptions = {
    matchThreshold: config.matchThreshold,
    matchThresholdByUnit: config.matchThresholdByUnit,
    threads: config.workers,
    taskTimeoutMs: config.timeoutMs,
  };
  return lazyFaceService(() => createFaceService(options), resolveFaceOptions(options));
}

function lazyFaceService(
  create: () => Promise<FaceService>,
  resolved: ReturnType<typeof resolveFaceOptions>,
): FaceService {
  const threshold = resolved.matchThreshold;
  const descriptorVersion = descriptorVersionOf(resolved.core);
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
    thresholdFor: (federativeUnit: string) =>
      thresholdOfUnit(threshold, resolved.matchThresholdByUnit, federativeUnit),
    analyze: async (image: Uint8Array): Promise<FaceAnalysis> => (await get()).analyze(image),
    compare: (
      a: Descriptor | FaceAnalysis,
      b: Descriptor | FaceAnalysis,
      at: number = threshold,
    ): FaceComparison => compareFaces(a, b, at),
    close: async () => {
      if (service) await (await service).close().catch(() => undefined);
    },
  };
}
