// @ts-check
/**
 * Tests only: the face worker (face-worker.mjs) with faults on demand. Each
 * task first reads the file named by workerData.faultControlFile: `spin`
 * keeps the thread busy forever, `exit` ends the worker thread, `throw`
 * throws outside the task (from a timer) and never answers; anything else
 * (or no file) runs the real engine. The pool is given this module through
 * its `worker` option, which no configuration reaches.
 */
import fs from 'node:fs';
import { workerData } from 'node:worker_threads';
import realWorker from '../../src/biometrics/face-worker.mjs';

/** @type {string | undefined} */
const controlFile = workerData?.faultControlFile;

function fault() {
  try {
    return controlFile ? fs.readFileSync(controlFile, 'utf8').trim() : '';
  } catch {
    return '';
  }
}

export default (async () => {
  const handle = await realWorker;
  /** @param {{ type: 'analyze'; image: Uint8Array }} task */
  return async (task) => {
    switch (fault()) {
      case 'spin':
        for (;;) {
          // A worker stuck in a computation: only terminating the thread stops it.
        }
      case 'exit':
        process.exit(1);
        break;
      case 'throw':
        setTimeout(() => {
          throw new Error('falha simulada no worker do motor facial');
        });
        return new Promise(() => undefined);
      default:
        return handle(task);
    }
  };
})();
