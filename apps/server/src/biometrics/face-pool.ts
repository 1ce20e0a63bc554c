/**
 * The face service: the engine on a pool of worker threads, so that the
 * ~150 ms of CPU-bound inference per capture never runs on the event loop.
 * Each worker loads and warms its own copy of the models (~12 MB of weights:
 * face-api's three networks and MobileFaceNet); tasks carry the image bytes
 * in and plain data out.
 *
 * The pool starts on first use (ready() or analyze()): a server starts it
 * when it issues a face challenge (face-challenges.service.ts), so the
 * models load while the person turns their head and the take's pictures
 * find them ready; a server that verifies no face, or an app built without
 * a face service (tests that do not touch faces, scripts), never starts
 * one. A failed start is retried on the next use.
 *
 * `inProcess` runs the same pipeline on the calling thread instead, without
 * workers: for tests (vitest runs many files at once, each in its own
 * thread; one copy of the models per test thread instead of a pool per
 * file), the end-to-end fixtures and the benchmark's comparison. Inference
 * then blocks the event loop, so a server never uses it.
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import type { AppConfig } from '../config/env';
import { runtimePath } from '../config/runtime-paths';
import { compareFaces, type Descriptor, type FaceComparison } from './descriptor';
import type {
  CoreResult,
  FaceAnalysis,
  FaceAnalysisObserver,
  FaceAnalysisOutcome,
  FaceCoreOptions,
  FaceService,
} from './engine-types';
import {
  descriptorVersionOf,
  resolveFaceOptions,
  thresholdOfUnit,
  unwrapCoreResult,
  type FaceEngineOptions,
} from './face-engine';
import { engineUnavailable, faceError } from './face-errors';

const WORKER_FILE = runtimePath('biometrics/face-worker.mjs');

export type FacePoolOptions = FaceEngineOptions & {
  /** Runs on the calling thread, without workers (tests, scripts, the benchmark). */
  inProcess?: boolean;
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

/** What runs the pipeline once started: the worker threads or the calling thread. */
type Runner = {
  run(image: Uint8Array): Promise<CoreResult>;
  queueSize(): number;
  close(): Promise<void>;
};

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

/** A picture without a usable face is an answer; an engine failure is not. */
function outcomeOf(error: unknown): FaceAnalysisOutcome {
  const status = (error as { status?: number } | null)?.status;
  return typeof status === 'number' && status < 500 ? 'rejected' : 'error';
}

export class FacePool implements FaceService {
  readonly threshold: number;
  readonly descriptorVersion: string;
  /** Worker threads (0 in process). */
  readonly threads: number;
  private readonly thresholdByUnit: Readonly<Record<string, number>>;
  private readonly core: FaceCoreOptions;
  private readonly options: FacePoolOptions;
  private readonly taskTimeoutMs: number;
  private readonly readyTimeoutMs: number;
  private starting: Promise<Runner> | undefined;
  /** The runner once started. */
  private current: Runner | undefined;
  private closed = false;
  /** Workers stopped and replaced (a task past its time, a crash). */
  private replacedWorkers = 0;
  private readonly observers = new Set<FaceAnalysisObserver>();

  /** Resolves the options (a bad one throws here, at start-up); starts nothing. */
  constructor(options: FacePoolOptions = {}) {
    const resolved = resolveFaceOptions(options);
    this.threshold = resolved.matchThreshold;
    this.thresholdByUnit = resolved.matchThresholdByUnit;
    this.core = resolved.core;
    this.descriptorVersion = descriptorVersionOf(resolved.core);
    this.options = options;
    this.threads = options.inProcess ? 0 : (options.threads ?? defaultThreadCount());
    if (!options.inProcess && (!Number.isInteger(this.threads) || this.threads < 1)) {
      throw new TypeError(`Opção inválida do motor facial: threads=${options.threads}`);
    }
    this.taskTimeoutMs = options.taskTimeoutMs ?? DEFAULT_FACE_TIMEOUT_MS;
    this.readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  }

  /** Whether the pool was asked to start (it loads its models in the background meanwhile). */
  get started(): boolean {
    return this.starting !== undefined || this.current !== undefined;
  }

  /** Workers stopped and replaced so far (a task past FACE_TIMEOUT_MS, a crash). */
  get replaced(): number {
    return this.replacedWorkers;
  }

  /** Starts the pool (or the models in process) once; a failed start is retried next time. */
  private start(): Promise<Runner> {
    if (!this.starting) {
      const started = this.options.inProcess ? this.startInProcess() : this.startWorkers();
      this.starting = started;
      started.then(
        (runner) => {
          this.current = runner;
        },
        () => {
          if (this.starting === started) this.starting = undefined;
        },
      );
    }
    return this.starting;
  }

  private async startInProcess(): Promise<Runner> {
    // TensorFlow.js and the networks load here, on first use, not with the server's modules.
    const { analyzeFace, loadFaceModels } = await import('./engine-core.mjs');
    await loadFaceModels(this.core.detectorInputSizes);
    return {
      run: (image) => analyzeFace(image, this.core),
      queueSize: () => 0,
      // The networks stay loaded: tfjs keeps one backend per thread and
      // another engine in this thread reuses them.
      close: async () => undefined,
    };
  }

  private async startWorkers(): Promise<Runner> {
    const options = this.options;
    const threads = this.threads;
    const pool = new Piscina({
      filename: options.worker?.file ?? WORKER_FILE,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      maxQueue: options.maxQueue ?? threads * 64,
      workerData: { ...options.worker?.data, faceCoreOptions: this.core },
    });
    /** Workers with their models loaded (a replacement counts once it has loaded them). */
    let liveWorkers = threads;
    let workerWaiters: Array<() => void> = [];
    /** Set once the pool itself is being stopped: its workers are not replacements. */
    let stopping = false;
    // Piscina announces a replacement once its module (the models) has loaded.
    pool.on('workerCreate', () => {
      if (liveWorkers >= threads) return; // the first ones, counted above
      liveWorkers += 1;
      const waiters = workerWaiters;
      workerWaiters = [];
      for (const wake of waiters) wake();
    });
    pool.on('workerDestroy', () => {
      if (this.closed || stopping) return;
      liveWorkers = Math.max(0, liveWorkers - 1);
      this.replacedWorkers += 1;
    });
    // A worker that dies outside any task (an error thrown from a timer) is
    // replaced by piscina, which reports it here: without a listener the
    // 'error' event would take the whole server down.
    pool.on(
      'error',
      options.onWorkerError ??
        ((error: unknown) =>
          console.error('Worker do motor facial falhou e foi substituído.', error)),
    );

    /** Waits, at most readyTimeoutMs, until a worker has its models (after a replacement). */
    const workerAvailable = async (): Promise<void> => {
      if (liveWorkers > 0) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          workerWaiters = workerWaiters.filter((wake) => wake !== done);
          reject(new Error(`nenhum worker do motor facial pronto em ${this.readyTimeoutMs} ms`));
        }, this.readyTimeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        workerWaiters.push(done);
      });
    };

    try {
      await waitForWorkers(pool, threads, this.readyTimeoutMs);
    } catch (error) {
      stopping = true;
      await pool.destroy().catch(() => undefined);
      throw error;
    }

    return {
      run: async (image) => {
        // A private copy travels by transfer: no second copy on the way, and the
        // caller's buffer (maybe a slice of Node's shared pool) is left alone.
        const copy = new Uint8Array(image);
        let signal: AbortSignal | undefined;
        try {
          await workerAvailable();
          signal = AbortSignal.timeout(this.taskTimeoutMs);
          return (await pool.run(
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
      },
      queueSize: () => pool.queueSize,
      // Lets running and queued analyses finish, then stops the workers.
      close: () => pool.close(),
    };
  }

  /** The started runner; a failed start is FACE_ENGINE_UNAVAILABLE. */
  private async runner(): Promise<Runner> {
    try {
      return await this.start();
    } catch (error) {
      throw engineUnavailable(error);
    }
  }

  async ready(): Promise<void> {
    // Once closed, nothing starts again.
    if (this.closed && !this.starting) throw faceError('FACE_ENGINE_UNAVAILABLE');
    await this.runner();
  }

  async analyze(image: Uint8Array): Promise<FaceAnalysis> {
    const started = performance.now();
    for (const observer of this.observers) observer.started();
    let outcome: FaceAnalysisOutcome = 'error';
    try {
      if (this.closed) throw faceError('FACE_ENGINE_UNAVAILABLE');
      const runner = await this.runner();
      const face = unwrapCoreResult(await runner.run(image));
      outcome = 'ok';
      return face;
    } catch (error) {
      outcome = outcomeOf(error);
      throw error;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const observer of this.observers) observer.finished(outcome, seconds);
    }
  }

  thresholdFor(federativeUnit: string): number {
    return thresholdOfUnit(this.threshold, this.thresholdByUnit, federativeUnit);
  }

  compare(
    a: Descriptor | FaceAnalysis,
    b: Descriptor | FaceAnalysis,
    threshold: number = this.threshold,
  ): FaceComparison {
    return compareFaces(a, b, threshold);
  }

  /** Analyses waiting for a free worker thread (0 before the start and in process). */
  queueSize(): number {
    return this.current?.queueSize() ?? 0;
  }

  observe(observer: FaceAnalysisObserver): () => void {
    this.observers.add(observer);
    return () => {
      this.observers.delete(observer);
    };
  }

  /** Lets running and queued analyses finish, then stops the workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const runner = await this.starting?.catch(() => undefined);
    await runner?.close();
  }
}

/** Resolves once every worker has loaded and warmed the models. */
function waitForWorkers(pool: Piscina, threads: number, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const ready = new Set<number>();
    const finish = (error?: Error) => {
      clearTimeout(timer);
      pool.off('message', onMessage);
      pool.off('error', onError);
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
      if (ready.size >= threads) finish();
    };
    const onError = (error: unknown) =>
      finish(error instanceof Error ? error : new Error(String(error)));
    const timer = setTimeout(
      () => finish(new Error(`Workers do motor facial não ficaram prontos em ${timeoutMs} ms.`)),
      timeoutMs,
    );
    pool.on('message', onMessage);
    pool.on('error', onError);
  });
}

/** A pool started and warmed on return (closed again if it cannot start). */
export async function createFaceService(options: FacePoolOptions = {}): Promise<FacePool> {
  const service = new FacePool(options);
  try {
    await service.ready();
  } catch (error) {
    await service.close();
    throw error;
  }
  return service;
}

/**
 * The one way a server builds its face service from the configuration
 * (FACE_MATCH_THRESHOLD, FACE_MATCH_THRESHOLD_BY_UNIT, FACE_WORKERS,
 * FACE_TIMEOUT_MS); it starts on first use.
 */
export function faceServiceFromConfig(config: AppConfig['face']): FacePool {
  return new FacePool({
    matchThreshold: config.matchThreshold,
    matchThresholdByUnit: config.matchThresholdByUnit,
    threads: config.workers,
    taskTimeoutMs: config.timeoutMs,
  });
}
