/**
 * The face engine on a pool of worker threads, so that the ~150 ms of
 * CPU-bound inference per capture never runs on the event loop. Each worker
 * loads and warms its own copy of the models (~12 MB of weights: face-api's
 * three networks and MobileFaceNet) before ready()
 * resolves; tasks carry the image bytes in and plain data out.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { CoreResult } from './engine-core.mjs';
import {
  FaceEngine,
  FaceServiceBase,
  resolveFaceOptions,
  type FaceEngineOptions,
  type FaceService,
} from './face-engine';
import { engineUnavailable } from './face-errors';

const WORKER_FILE = fileURLToPath(new URL('./face-worker.mjs', import.meta.url));

export type FacePoolOptions = FaceEngineOptions & {
  /** Worker threads; defaults to one per core but one, leaving a core to the event loop. */
  threads?: number;
  /** How long ready() waits for every worker to load its models. */
  readyTimeoutMs?: number;
  /** Tasks allowed to wait for a worker before analyze() answers 503. */
  maxQueue?: number;
};

export function defaultThreadCount(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

type WorkerMessage =
  | { type: 'face-worker-ready'; threadId: number }
  | { type: 'face-worker-failed'; threadId: number; message: string };

function isWorkerMessage(value: unknown): value is WorkerMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    (value.type === 'face-worker-ready' || value.type === 'face-worker-failed')
  );
}

export class FacePool extends FaceServiceBase {
  readonly threads: number;
  private readonly pool: Piscina;
  /** Resolves once every worker has loaded and warmed the models. */
  protected readonly loading: Promise<void>;

  constructor(options: FacePoolOptions = {}) {
    const resolved = resolveFaceOptions(options);
    super(resolved);
    this.threads = options.threads ?? defaultThreadCount();
    if (!Number.isInteger(this.threads) || this.threads < 1) {
      throw new TypeError(`Opção inválida do motor facial: threads=${options.threads}`);
    }
    this.pool = new Piscina({
      filename: WORKER_FILE,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      maxQueue: options.maxQueue ?? this.threads * 64,
      workerData: { faceCoreOptions: resolved.core },
    });
    this.loading = this.waitForWorkers(options.readyTimeoutMs ?? 120_000);
    this.loading.catch(() => undefined);
  }

  private waitForWorkers(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const ready = new Set<number>();
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.pool.off('message', onMessage);
        this.pool.off('error', onError);
        if (error) reject(error);
        else resolve();
      };
      const onMessage = (message: unknown) => {
        if (!isWorkerMessage(message)) return;
        if (message.type === 'face-worker-failed') {
          finish(new Error(`Worker do motor facial falhou ao iniciar: ${message.message}`));
          return;
        }
        ready.add(message.threadId);
        if (ready.size >= this.threads) finish();
      };
      const onError = (error: unknown) =>
        finish(error instanceof Error ? error : new Error(String(error)));
      const timer = setTimeout(
        () => finish(new Error(`Workers do motor facial não ficaram prontos em ${timeoutMs} ms.`)),
        timeoutMs,
      );
      this.pool.on('message', onMessage);
      this.pool.on('error', onError);
    });
  }

  protected async runCore(image: Uint8Array): Promise<CoreResult> {
    // A private copy travels by transfer: no second copy on the way, and the
    // caller's buffer (maybe a slice of Node's shared pool) is left alone.
    const copy = new Uint8Array(image);
    try {
      return (await this.pool.run(
        { type: 'analyze', image: copy },
        { transferList: [copy.buffer] },
      )) as CoreResult;
    } catch (error) {
      throw engineUnavailable(error);
    }
  }

  /** Analyses waiting for a free worker thread. */
  queueSize(): number {
    return this.pool.queueSize;
  }

  /** Lets running and queued analyses finish, then stops the workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.close();
  }
}

/**
 * Picks the mode: the worker pool for a server, or the engine on the calling
 * thread (scripts, the benchmark's comparison). Both are warmed on return.
 */
export async function createFaceService(
  options: FacePoolOptions & { inProcess?: boolean } = {},
): Promise<FaceService> {
  const service = options.inProcess ? new FaceEngine(options) : new FacePool(options);
  try {
    await service.ready();
  } catch (error) {
    await service.close();
    throw error;
  }
  return service;
}
