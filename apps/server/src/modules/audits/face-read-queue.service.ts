/**
 * The `face-read` queue: the reading of exam photos (the audit's similarity)
 * as pg-boss jobs, one per photo, which any process with a face pool
 * consumes: the server (unless FACE_READ_IN_SERVER=false) and the dedicated
 * `npm run face:worker` processes. A job is sent for a photo once its write
 * is committed (integration uploads, a room's occurrence), and the
 * `face-sweep` enqueues the photos of the backlog still unread without a
 * live job (jobs/scheduled-jobs.ts), the safety net of a lost send.
 *
 * Each photo is read once: the queue is `stately` with the photo id as the
 * key (one job waiting and one running per photo at most: a second send
 * while one waits is dropped, and two jobs of one photo never run at once),
 * and the reading skips a photo the running engine already read (a job
 * delivered twice). Face verification (check-ins) is not queued: it answers
 * a person waiting, on the request path.
 */
import type PgBoss from 'pg-boss';
import type { DatabaseHandle, Executor } from '../../db/client';
import { consumeQueue, type JobBossLog } from '../../db/job-boss';
import { retryingDeadlocks } from '../../db/errors';
import { announceFaceReads, FACE_READ_CHANNEL } from './face-read-queue.repository';
import { listBacklogToRead, readQueuedPhoto, type PhotoFaceDeps } from './photo-faces.service';

export const FACE_READ_QUEUE = 'face-read';

export type FaceReadJob = { photoId: string };

/**
 * A reading that failed (engine or storage down) is tried again after 10 s,
 * then longer each time; a job running past 5 min is given up and retried.
 */
const QUEUE_OPTIONS = {
  name: FACE_READ_QUEUE,
  policy: 'stately' as const,
  retryLimit: 5,
  retryDelay: 10,
  retryBackoff: true,
  expireInSeconds: 300,
  // Finished jobs are kept a day (the default 14 for the job table is for scheduled runs).
  retentionMinutes: 24 * 60,
};

/** How often an idle consumer looks for a job (a busy one takes the next at once). */
const POLLING_SECONDS = 2;

/** Creates the queue (or brings its options up to date). */
export async function ensureFaceReadQueue(boss: PgBoss): Promise<void> {
  await retryingDeadlocks(() => boss.createQueue(FACE_READ_QUEUE, QUEUE_OPTIONS));
  await retryingDeadlocks(() => boss.updateQueue(FACE_READ_QUEUE, QUEUE_OPTIONS));
}

/**
 * Sends one job per photo, in one statement (a photo whose job still waits
 * gets none), then wakes the idle consumers of every process listening on
 * the database (`consumeFaceReads` with `listen`).
 */
export async function sendFaceReads(
  boss: PgBoss,
  db: Executor,
  photoIds: readonly string[],
): Promise<void> {
  if (photoIds.length === 0) return;
  await boss.insert(
    photoIds.map((photoId) => ({
      name: FACE_READ_QUEUE,
      data: { photoId } satisfies FaceReadJob,
      singletonKey: photoId,
    })),
  );
  await announceFaceReads(db);
}

/**
 * Where the services report the photos they stored, after the commit: the
 * queue once this process's job queue has started (attach), nothing before
 * (tests and scripts without a queue; the sweep finds those photos).
 */
export type FaceReadNotices = {
  photosStored: (photoIds: readonly string[]) => void;
  attach: (send: (photoIds: readonly string[]) => Promise<void>) => void;
  detach: () => void;
};

export function createFaceReadNotices(log: Pick<JobBossLog, 'error'>): FaceReadNotices {
  let send: ((photoIds: readonly string[]) => Promise<void>) | undefined;
  return {
    photosStored(photoIds) {
      if (!send || photoIds.length === 0) return;
      send(photoIds).catch((error: unknown) =>
        log.error({ err: error }, 'falha ao enfileirar a leitura facial das fotos'),
      );
    },
    attach(sender) {
      send = sender;
    },
    detach() {
      send = undefined;
    },
  };
}

/** One pass of the sweep: jobs for up to `limit` unread photos of the backlog without one. */
export async function enqueueUnreadPhotos(
  deps: Pick<PhotoFaceDeps, 'db' | 'face'>,
  boss: PgBoss,
  limit: number,
): Promise<number> {
  const photos = await listBacklogToRead(deps, limit, FACE_READ_QUEUE);
  await sendFaceReads(
    boss,
    deps.db,
    photos.map((photo) => photo.id),
  );
  return photos.length;
}

export type FaceReadConsumerOptions = {
  /** Jobs at once: the face pool's threads and one more, so the pool never waits on I/O. */
  concurrency: number;
  pollingSeconds?: number;
  /** Each photo this process read (the worker prints them; the server counts them). */
  onRead?: (reading: { photoId: string; examId: string; ms: number }) => void;
  /**
   * The database's LISTEN: the consumers wake when any process sends jobs
   * (`sendFaceReads`), not at their next poll (a photo is read up to
   * `pollingSeconds` sooner). Without it they wake on `notify` and poll.
   */
  listen?: DatabaseHandle['listen'];
  log: JobBossLog;
};

export type FaceReadConsumption = {
  /** Wakes this process's idle consumers (after a send of its own). */
  notify: () => void;
  /** Stops listening for other processes' sends (the consumers stop with pg-boss). */
  unlisten: () => Promise<void>;
};

/** Consumes the queue in this process; `notify` wakes it after a local send. */
export async function consumeFaceReads(
  boss: PgBoss,
  deps: PhotoFaceDeps,
  options: FaceReadConsumerOptions,
): Promise<FaceReadConsumption> {
  const consumption = await consumeQueue<FaceReadJob>(boss, {
    name: FACE_READ_QUEUE,
    concurrency: options.concurrency,
    pollingSeconds: options.pollingSeconds ?? POLLING_SECONDS,
    handle: async ({ photoId }) => {
      const started = performance.now();
      try {
        const outcome = await readQueuedPhoto(deps, photoId);
        if (outcome.status === 'read' && outcome.examId) {
          options.onRead?.({
            photoId,
            examId: outcome.examId,
            ms: Math.round(performance.now() - started),
          });
        }
        return { status: outcome.status };
      } catch (error) {
        options.log.error({ err: error, photoId }, 'leitura facial de uma foto falhou');
        throw error;
      }
    },
  });
  const unlisten = options.listen
    ? await options.listen(FACE_READ_CHANNEL, () => consumption.notify())
    : async () => undefined;
  return { notify: consumption.notify, unlisten };
}

/** The consumers of a face pool with `threads` worker threads (0: in process). */
export function faceReadConcurrency(threads: number): number {
  return Math.max(1, threads) + 1;
}
