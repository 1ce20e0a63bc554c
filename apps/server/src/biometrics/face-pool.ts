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
import { engineUnavailable, faceError } from './face-errors';

const WORKER_FILE = fileURLToPath(new URL('./face-worker.mjs', import.meta.url));

export type FacePoolOptions = FaceEngineOptions & {
  /** Worker threads; defaults to one per core but one, leaving a core to the event loop. */
  threads?: number;
  /** How long ready() waits for every worker to load its models. */
  readyTimeoutMs?: number;
  /** Tasks allowed to wait for a worker before analyze() answers 503. */
  maxQueue?: number;
  /**
   * How long one analysis may run (FACE_TIMEOUT_MS, default 30 s): past it
   * the worker is stopped and replaced, and analyze() answers 503
   * FACE_TIMEOUT. Counted from when a worker with its models is there (a
   * replacement's loading does not count).
   */
  taskTimeoutMs?: number;
  /**
   * Tests only: another worker module (one that wraps face-worker.mjs) and
   * extra workerData for it, to make a worker slow or crash. Not reachable
   * from the configuration.
   */
  worker?: { file: string; data?: Record<string, unknown> };
  /** Where a worker that failed outside any task is reported (default: console.error). */
  onWorkerError?: (error: unknown) => void;
};

export const DEFAULT_FACE_TIMEOUT_MS = 30_000;

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
  private readonly taskTimeoutMs: number;
  private readonly readyTimeoutMs: number;
  /** Workers with their models loaded (a replacement counts once it has loaded them). */
  private liveWorkers: number;
  /** Workers stopped and replaced (a task past its time, a crash). */
  private replacedWorkers = 0;
  private workerWaiters: Array<() => void> = [];

  constructor(options: FacePoolOptions = {}) {
    const resolved = resolveFaceOptions(options);
    super(resolved);
    this.threads = options.threads ?? defaultThreadCount();
    if (!Number.isInteger(this.threads) || this.threads < 1) {
      throw new TypeError(`Opção inválida do motor facial: threads=${options.threads}`);
    }
    this.taskTimeoutMs = options.taskTimeoutMs ?? DEFAULT_FACE_TIMEOUT_MS;
    this.readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
    this.pool = new Piscina({
      filename: options.worker?.file ?? WORKER_FILE,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      maxQueue: options.maxQueue ?? this.threads * 64,
      workerData: { ...options.worker?.data, faceCoreOptions: resolved.core },
    });
    this.liveWorkers = this.threads;
    // Piscina announces a replacement once its module (the models) has loaded.
    this.pool.on('workerCreate', () => {
      if (this.liveWorkers >= this.threads) return; // the first ones, counted above
      this.liveWorkers += 1;
      const waiters = this.workerWaiters;
      this.workerWaiters = [];
      for (const wake of waiters) wake();
    });
    this.pool.on('workerDestroy', () => {
      if (this.closed) return;
      this.liveWorkers = Math.max(0, this.liveWorkers - 1);
      this.replacedWorkers += 1;
    });
    // A worker that dies outside any task (an error thrown from a timer) is
    // replaced by piscina, which reports it here: without a listener the
    // 'error' event would take the whole server down.
    const report =
      options.onWorkerError ??
      ((error: unknown) =>
        console.error('Worker do motor facial falhou e foi substituído.', error));
    this.pool.on('error', report);
    this.loading = this.waitForWorkers(this.readyTimeoutMs);
    this.loading.catch(() => undefined);
  }

  /** Workers stopped and replaced so far (a task past FACE_TIMEOUT_MS, a crash). */
  get replaced(): number {
    return this.replacedWorkers;
  }

  /** Waits, at most readyTimeoutMs, until a worker has its models (after a replacement). */
  private async workerAvailable(): Promise<void> {
    if (this.liveWorkers > 0) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.workerWaiters = this.workerWaiters.filter((wake) => wake !== done);
        reject(new Error(`nenhum worker do motor facial pronto em ${this.readyTimeoutMs} ms`));
      }, this.readyTimeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.workerWaiters.push(done);
    });
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
    let signal: AbortSignal | undefined;
    try {
      await this.workerAvailable();
      signal = AbortSignal.timeout(this.taskTimeoutMs);
      return (await this.pool.run(
        { type: 'analyze', image: copy },
        { transferList: [copy.buffer], signal },
      )) as CoreResult;
    } catch (error) {
      // Past its time the task's worker was stopped; piscina starts another.
      if (signal?.aborted && !this.closed) {
        const timedOut = faceError('FACE_TIMEOUT').withHeader('retry-after', '5');
        timedOut.cause = error;
        throw timedOut;
      }
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
