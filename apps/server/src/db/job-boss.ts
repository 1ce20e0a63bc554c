/**
 * The PostgreSQL job queue (pg-boss) on the app's own database, in its own
 * schema (`pgboss`): started here, once per process, for the server's
 * scheduled jobs (jobs/job-queue.ts) and for work queues whose jobs carry
 * data, such as the reading of exam photos (`face-read`), which any process
 * may consume (the server, or the `face:worker` processes).
 *
 * On the embedded PGlite the queue runs through the database handle's raw
 * statements (`executeRaw`), on the database's worker thread.
 */
import PgBoss from 'pg-boss';
import type { DatabaseHandle } from './client';
import { deadlockVictim, uniqueViolation } from './errors';

/** The schema of the job tables. */
export const JOB_SCHEMA = 'pgboss';

export type JobBossLog = {
  info: (object: object, message: string) => void;
  error: (object: object, message: string) => void;
};

export type JobBossOptions = {
  log: JobBossLog;
  /** Looks at the cron schedules (a server); a process that only consumes work queues does not. */
  schedule?: boolean;
  /** How often the schedules are looked at (by one instance at a time). Default 30 s. */
  cronMonitorSeconds?: number;
};

/**
 * Instances starting together on an empty database race to create the job
 * queue's schema: the loser can get a unique violation in the catalog (a
 * schema or type created at the same moment) or a deadlock. Its start did
 * nothing it keeps (pg-boss creates everything in one transaction), and a
 * PgBoss that failed to start cannot start again, so a new one tries, up to
 * five times, and finds the schema made.
 */
export async function startJobBoss(
  database: Pick<DatabaseHandle, 'executeRaw'>,
  options: JobBossOptions,
): Promise<PgBoss> {
  const cronSeconds = options.cronMonitorSeconds ?? 30;
  for (let attempt = 1; ; attempt += 1) {
    const boss = new PgBoss({
      db: { executeSql: (text: string, values: unknown[]) => database.executeRaw(text, values) },
      schema: JOB_SCHEMA,
      migrate: true,
      supervise: true,
      schedule: options.schedule ?? true,
      cronMonitorIntervalSeconds: cronSeconds,
      cronWorkerIntervalSeconds: Math.min(cronSeconds, 5),
    });
    boss.on('error', (error: unknown) => {
      options.log.error({ err: error }, 'falha na fila de trabalhos');
    });
    try {
      await boss.start();
      return boss;
    } catch (error) {
      boss.removeAllListeners();
      const race = uniqueViolation(error) !== null || deadlockVictim(error);
      if (!race || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

export type QueueConsumer<T> = {
  name: string;
  /** Jobs this process handles at once (one pg-boss worker each, one job per fetch). */
  concurrency: number;
  /** How often an idle worker looks for a job. */
  pollingSeconds: number;
  /** One job; a throw fails it (retried as the queue says). */
  handle: (data: T) => Promise<unknown>;
};

export type QueueConsumption = {
  /** Wakes the idle workers now (after this process sent jobs). */
  notify: () => void;
};

/**
 * Consumes a queue with `concurrency` workers. pg-boss waits a whole polling
 * interval after each job; a worker that just finished one looks for the
 * next at once instead, so a backlog drains at the speed of the handler.
 */
export async function consumeQueue<T>(
  boss: PgBoss,
  consumer: QueueConsumer<T>,
): Promise<QueueConsumption> {
  const ids: string[] = [];
  for (let index = 0; index < consumer.concurrency; index += 1) {
    // Known once work() returns, before the first job (fetched over the database) arrives.
    const worker: { id?: string } = {};
    worker.id = await boss.work<T>(
      consumer.name,
      { pollingIntervalSeconds: consumer.pollingSeconds, batchSize: 1 },
      async ([job]) => {
        try {
          return job ? await consumer.handle(job.data) : undefined;
        } finally {
          if (worker.id) boss.notifyWorker(worker.id);
        }
      },
    );
    ids.push(worker.id);
  }
  return {
    notify: () => {
      for (const id of ids) boss.notifyWorker(id);
    },
  };
}
