/**
 * Scheduled work that must run once per schedule however many instances run:
 * a PostgreSQL job queue (pg-boss) on the app's own database, in its own
 * schema (`pgboss`). Every instance starts the queue; a due run is one job
 * row, and one instance takes it (`FOR UPDATE SKIP LOCKED`), the others
 * never see it.
 *
 * - A schedule (`cron`, five fields, São Paulo time): pg-boss lets one
 *   instance per interval look at the schedules and makes one job per
 *   minute of a due schedule, whichever instances look.
 * - An interval (`everySeconds`): each instance offers a run every so
 *   often; one job per interval slot is kept (pg-boss's singleton slot, the
 *   same for every instance), the others are dropped by a unique index.
 * - At start (`atStart`): the instances starting within the same hour make
 *   one run between them.
 * - Queues are `singleton`: a second run never starts while one is active.
 *
 * The embedded PGlite (one instance) runs the same queue through the
 * database handle's raw statements (`executeRaw`), on the database's worker
 * thread. Each run by this instance is counted in the metrics
 * (`exame_job_runs_total`, `exame_job_duration_seconds`).
 */
import type PgBoss from 'pg-boss';
import type { DatabaseHandle } from '../db/client';
import { retryingDeadlocks } from '../db/errors';
import { startJobBoss } from '../db/job-boss';
import type { Metrics } from '../plugins/metrics-registry';

/** The time zone of the schedules: the product's day is São Paulo's. */
export const JOB_TIME_ZONE = 'America/Sao_Paulo';

export type JobDefinition = {
  /** Queue name: lower-case words and dashes. */
  name: string;
  /**
   * One run; what it returns is logged (nothing when it returns undefined).
   * A throw fails the run (retried up to `retryLimit`).
   */
  run: () => Promise<unknown>;
  /** A schedule, cron with five fields in JOB_TIME_ZONE. */
  cron?: string;
  /** An interval: one run per slot of this many seconds across instances. */
  everySeconds?: number;
  /** One run when the instances start (one per hour whatever how many start). */
  atStart?: boolean;
  /** A run still active after this long is given up (and retried). Default 15 min. */
  expireInSeconds?: number;
  /** Further attempts after a failed run, `retryDelaySeconds` apart. Default 2, 60 s. */
  retryLimit?: number;
  retryDelaySeconds?: number;
};

export type JobLog = {
  info: (object: object, message: string) => void;
  error: (object: object, message: string) => void;
};

export type JobQueueOptions = {
  log: JobLog;
  metrics?: Pick<Metrics, 'observeJob'>;
  /** How often this instance looks for a job of each queue. Default 5 s. */
  pollingSeconds?: number;
  /** How often the schedules are looked at (by one instance at a time). Default 30 s. */
  cronMonitorSeconds?: number;
  /** Waits for running jobs on stop, at most this long. Default 10 s. */
  stopTimeoutMs?: number;
  /**
   * Work queues this instance sends to or consumes (jobs with data, such as
   * `face-read`), set up on the same pg-boss before the scheduled jobs;
   * each may return a step run first on stop.
   */
  workQueues?: ReadonlyArray<(boss: PgBoss) => Promise<(() => void) | void>>;
};

export type JobQueue = {
  /** Stops taking jobs, waits for the running ones (up to `stopTimeoutMs`). */
  stop: () => Promise<void>;
};

const AT_START_SLOT_SECONDS = 3600;

/*
 * Instances starting together create the same queues at once; PostgreSQL may
 * pick one of them as a deadlock victim (each attaches a partition to the
 * job table). The victim did nothing and tries again (`retryingDeadlocks`).
 */

export async function startJobQueue(
  database: Pick<DatabaseHandle, 'executeRaw'>,
  definitions: readonly JobDefinition[],
  options: JobQueueOptions,
): Promise<JobQueue> {
  const pollingSeconds = options.pollingSeconds ?? 5;
  const boss = await startJobBoss(database, {
    log: options.log,
    cronMonitorSeconds: options.cronMonitorSeconds,
  });
  // Before the scheduled jobs: a job's first run may send to them.
  const beforeStop: Array<() => void> = [];
  for (const setUp of options.workQueues ?? []) {
    const step = await setUp(boss);
    if (step) beforeStop.push(step);
  }

  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  for (const job of definitions) {
    const queue = {
      name: job.name,
      policy: 'singleton' as const,
      retryLimit: job.retryLimit ?? 2,
      retryDelay: job.retryDelaySeconds ?? 60,
      expireInSeconds: job.expireInSeconds ?? 900,
    };
    await retryingDeadlocks(() => boss.createQueue(job.name, queue));
    // An existing queue keeps what it was created with unless updated.
    await retryingDeadlocks(() => boss.updateQueue(job.name, queue));

    await boss.work(job.name, { pollingIntervalSeconds: pollingSeconds }, async () => {
      const started = performance.now();
      try {
        const result = await job.run();
        const seconds = (performance.now() - started) / 1000;
        options.metrics?.observeJob(job.name, 'completed', seconds);
        if (result !== undefined) {
          options.log.info({ job: job.name, seconds, result }, 'trabalho agendado concluído');
        }
      } catch (error) {
        options.metrics?.observeJob(job.name, 'failed', (performance.now() - started) / 1000);
        options.log.error({ job: job.name, err: error }, 'trabalho agendado falhou');
        throw error;
      }
    });

    if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: JOB_TIME_ZONE });
    else await boss.unschedule(job.name);

    if (job.atStart) {
      await boss.send(
        job.name,
        {},
        { singletonKey: 'at-start', singletonSeconds: AT_START_SLOT_SECONDS },
      );
    }
    const every = job.everySeconds;
    if (every !== undefined && every > 0) {
      const offer = () => {
        if (stopped) return;
        boss
          .send(job.name, {}, { singletonKey: 'interval', singletonSeconds: every })
          .catch((error: unknown) =>
            options.log.error({ job: job.name, err: error }, 'falha ao agendar um trabalho'),
          );
      };
      offer();
      const timer = setInterval(offer, every * 1000);
      timer.unref();
      timers.push(timer);
    }
  }

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const step of beforeStop) step();
      for (const timer of timers) clearInterval(timer);
      await boss.stop({ graceful: true, wait: true, timeout: options.stopTimeoutMs ?? 10_000 });
    },
  };
}
