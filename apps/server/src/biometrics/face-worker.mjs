// @ts-check
/**
 * Piscina worker of the face pool. Plain JavaScript so that it loads in any
 * worker thread, with or without a TypeScript loader (vitest's workers have
 * none). The default export is a promise: piscina awaits it before it
 * reports the worker ready, so the models are loaded and warmed first.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { analyzeFace, loadFaceModels } from './engine-core.mjs';

/** @typedef {import('./engine-types').FaceCoreOptions} FaceCoreOptions */

/** Resolved on the main thread by resolveFaceOptions; see face-pool.ts. */
const options = /** @type {FaceCoreOptions} */ (workerData?.faceCoreOptions);

/**
 * @param {{ type: 'analyze'; image: Uint8Array }} task
 */
async function handle(task) {
  if (task?.type !== 'analyze') throw new Error('Tarefa desconhecida do motor facial.');
  return analyzeFace(task.image, options);
}

export default (async () => {
  if (!options) throw new Error('face-worker.mjs precisa de workerData.faceCoreOptions.');
  try {
    await loadFaceModels(options.detectorInputSizes);
  } catch (error) {
    parentPort?.postMessage({
      type: 'face-worker-failed',
      threadId,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
  // Piscina's own "ready" fires for the first workers before they have
  // loaded anything, so the pool waits for this message instead.
  parentPort?.postMessage({ type: 'face-worker-ready', threadId });
  return handle;
})();
