/**
 * The server's scheduled work, and where each part runs.
 *
 * Once per schedule across instances (jobs of the queue, job-queue.ts):
 * - `retention-purge`: the LGPD purge of personal data (demonstration
 *   candidates by DEMO_RETENTION_DAYS) and the operational purge (sessions,
 *   e-mails, counters, realtime events, orphan files), daily
 *   at RETENTION_CRON (03:00 São Paulo) and once when the instances start (a
 *   laptop is seldom on at 03:00). Two instances purging at once would do the
 *   same deletions twice and record them twice. The browser's activity events
 *   go after ACTIVITY_WEB_RETENTION_DAYS (modules/activity/chain-upkeep.service.ts).
 * - `activity-chain-anchor`: every activity chain's head written to the log,
 *   hourly (an anchor kept outside the database).
 * - `face-sweep`: every FACE_ANALYSIS_SWEEP_SECONDS, jobs of the `face-read`
 *   queue for the photos of exams waiting for audit still unread without
 *   one (a send lost, photos stored before the queue, an engine change).
 *
 * A work queue, each job taken by one process:
 * - `face-read` (modules/audits/face-read-queue.service.ts): a photo to read,
 *   sent when it is stored. Every instance sends to it; it consumes it unless
 *   FACE_READ_IN_SERVER=false (dedicated `npm run face:worker` processes do).
 *
 * Per instance, on purpose (not jobs):
 * - The queue of password-link requests (modules/auth/password-links.service.ts):
 *   a shared queue that any instance drains (`FOR UPDATE SKIP LOCKED`, each
 *   request taken by one), kicked right after each answer by the instance
 *   that answered and polled every 30 s by each; more instances only drain
 *   it sooner.
 * - The PGlite statistics refresh (main.ts): the embedded database has one
 *   instance by nature.
 * - Session-cache expiry and the realtime fan-out: state of the instance
 *   itself.
 *
 * Audit claims need nothing: a claim past its time counts as ended on read,
 * and is closed by the next claim on the exam.
 */
import type { FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import { defaultThreadCount } from '../biometrics/face-pool';
import { logChainAnchors, purgeBrowserEvents } from '../modules/activity/chain-upkeep.service';
import {
  consumeFaceReads,
  ensureFaceReadQueue,
  enqueueUnreadPhotos,
  faceReadConcurrency,
  sendFaceReads,
} from '../modules/audits/face-read-queue.service';
import { purgeExpiredDemoData } from '../modules/demo/demo-retention.service';
import { purgeExamFaces } from '../modules/fraud/fraud-detection.service';
import {
  purgeExpiredPersonalData,
  purgeOperationalData,
} from '../modules/retention/retention.service';
import {
  startJobQueue,
  type JobDefinition,
  type JobQueue,
  type JobQueueOptions,
} from './job-queue';

export const RETENTION_JOB = 'retention-purge';
export const FACE_SWEEP_JOB = 'face-sweep';
export const CHAIN_ANCHOR_JOB = 'activity-chain-anchor';

/** How often the activity chains' heads are written to the log. */
const CHAIN_ANCHOR_SECONDS = 3600;

/** Photos enqueued per run of the face sweep (a job is cheap; the readers set the pace). */
const FACE_SWEEP_BATCH = 500;

export type ScheduledJobsOptions = Omit<JobQueueOptions, 'log' | 'metrics'> & {
  /** One retention run when the instances start (default true). */
  retentionAtStart?: boolean;
};

/** This instance's pg-boss, once started (the sweep sends through it). */
type BossHolder = { boss?: PgBoss };

export function scheduledJobs(
  app: FastifyInstance,
  options: Pick<ScheduledJobsOptions, 'retentionAtStart'> = {},
  queue: BossHolder = {},
): JobDefinition[] {
  const deps = { db: app.database.db, files: app.files, pseudonym: app.pseudonym };
  const jobs: JobDefinition[] = [
    {
      name: RETENTION_JOB,
      cron: app.config.retention.cron,
      atStart: options.retentionAtStart ?? true,
      expireInSeconds: 2 * 3600,
      retryDelaySeconds: 300,
      run: async () => {
        const counts = await purgeExpiredPersonalData(deps, app.config.retention);
        const demo = await purgeExpiredDemoData(deps, app.config.demoRetentionDays);
        const operational = await purgeOperationalData(deps);
        const browserEvents = await purgeBrowserEvents(deps, app.config.activity.webRetentionDays);
        const examFaces = await purgeExamFaces(deps.db, {
          windowDays: app.config.fraud.windowDays,
          retention: app.config.retention,
        });
        // This process's indexes drop the purged faces at their next search.
        app.fraud.detection.indexes.reconcileNow();
        return { counts, demo, operational, browserEvents, examFaces };
      },
    },
  ];
  jobs.push({
    name: CHAIN_ANCHOR_JOB,
    everySeconds: CHAIN_ANCHOR_SECONDS,
    expireInSeconds: 600,
    retryLimit: 0,
    run: async () => {
      const anchors = await logChainAnchors({ db: deps.db, log: app.log });
      return { chains: anchors.length };
    },
  });
  const sweepSeconds = Math.round(app.config.audit.faceSweepMs / 1000);
  if (sweepSeconds > 0) {
    jobs.push({
      name: FACE_SWEEP_JOB,
      everySeconds: sweepSeconds,
      expireInSeconds: 600,
      retryLimit: 0,
      run: async () => {
        if (!queue.boss) return undefined;
        const queued = await enqueueUnreadPhotos(
          { db: deps.db, face: app.face },
          queue.boss,
          FACE_SWEEP_BATCH,
        );
        // Every 30 s: logged only when there was something to enqueue.
        return queued > 0 ? { queued } : undefined;
      },
    });
  }
  return jobs;
}

/** Starts this instance's part of the scheduled jobs; the caller stops it before the database closes. */
export function startScheduledJobs(
  app: FastifyInstance,
  options: ScheduledJobsOptions = {},
): Promise<JobQueue> {
  const holder: BossHolder = {};
  return startJobQueue(app.database, scheduledJobs(app, options, holder), {
    ...options,
    log: app.log,
    metrics: app.metrics,
    workQueues: [(boss) => startFaceReads(app, boss, holder)],
  });
}

/**
 * The `face-read` queue in a server: photos stored by this instance are sent
 * to it, and it reads them unless FACE_READ_IN_SERVER=false. Returns the step
 * that stops the sending (before pg-boss stops).
 */
async function startFaceReads(
  app: FastifyInstance,
  boss: PgBoss,
  holder: BossHolder,
): Promise<() => void> {
  await ensureFaceReadQueue(boss);
  holder.boss = boss;
  let wake = () => undefined as void;
  let unlisten = async () => undefined as void;
  if (app.config.audit.faceReadInServer) {
    const threads = app.config.face.workers ?? defaultThreadCount();
    const consumption = await consumeFaceReads(
      boss,
      {
        db: app.database.db,
        files: app.files,
        face: app.face,
        afterExamRead: app.fraud.afterExamRead,
      },
      {
        concurrency: faceReadConcurrency(threads),
        log: app.log,
        // Other instances' uploads wake this one's readers too.
        listen: app.database.listen,
      },
    );
    wake = consumption.notify;
    unlisten = consumption.unlisten;
  }
  app.faceReads.attach(async (photoIds) => {
    await sendFaceReads(boss, app.database.db, photoIds);
    // This instance's own readers at once, even while its listening connection reconnects.
    wake();
  });
  return () => {
    app.faceReads.detach();
    holder.boss = undefined;
    unlisten().catch((error: unknown) =>
      app.log.error({ err: error }, 'falha ao deixar de ouvir a fila de leitura facial'),
    );
  };
}
