/**
 * Scheduled work runs once per schedule however many instances run: two app
 * instances on one database (two pools on PostgreSQL; on PGlite, which one
 * process holds, the same handle), each with its job queue started as
 * main.ts starts it. The retention purge, at start and on its daily
 * schedule, runs on one of them only; the face sweep once per interval.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../db/select-rows';
import { biometricVerifications } from '../db/schema/index';
import {
  buildTestApp,
  engineName,
  openSameDatabase,
  type TestApp,
  type TestDatabase,
} from '../../test/helper';
import type { JobQueue } from './job-queue';
import { FACE_SWEEP_JOB, RETENTION_JOB, startScheduledJobs } from './scheduled-jobs';

const DAY = 86_400_000;
/** A schedule that never comes during a test (1 January, 03:00). */
const NEVER = '0 3 1 1 *';

/** Runs of `job` by this instance, from its metrics. */
async function runsOf(app: FastifyInstance, job: string, outcome = 'completed'): Promise<number> {
  const metric = await app.metrics.registry.getSingleMetric('exame_job_runs_total')?.get();
  const found = metric?.values.find(
    (value) => value.labels.job === job && value.labels.outcome === outcome,
  );
  return found?.value ?? 0;
}

type JobRow = {
  state: string;
  singleton_on: string | null;
  singleton_key: string | null;
  created_on: string;
};

async function jobRows(app: FastifyInstance, name: string): Promise<JobRow[]> {
  return selectRows<JobRow>(
    app.database.db,
    sql`select state, singleton_on::text, singleton_key, created_on::text from pgboss.job
          where name = ${name}
        union all select state, singleton_on::text, singleton_key, created_on::text
          from pgboss.archive where name = ${name}`,
  );
}

async function purgeEvents(app: FastifyInstance): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    app.database.db,
    sql`select count(*)::int as n from activity_log where type = 'retention_purge'`,
  );
  return row?.n ?? 0;
}

/** A verification past DF's retention: the purge has something to do (and records it). */
async function seedExpiredVerification(app: FastifyInstance): Promise<void> {
  await app.database.db.insert(biometricVerifications).values({
    federativeUnit: 'DF',
    cpf: '52998224725',
    match: true,
    threshold: 0.58,
    createdAt: new Date(Date.now() - 400 * DAY),
  });
}

/** The cron of the minute now, in São Paulo time, the schedules' zone. */
function cronOfThisMinute(): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Sao_Paulo',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(new Date());
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return `${value('minute')} ${value('hour')} * * *`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`scheduled jobs across two instances (${engineName})`, () => {
  let a: TestApp;
  let b: TestApp;
  let second: TestDatabase;
  let queues: JobQueue[] = [];

  beforeAll(async () => {
    a = await buildTestApp({
      config: { retention: { defaultDays: 365, byUnit: {}, cron: NEVER } },
    });
    second = await openSameDatabase(a.database);
    b = await buildTestApp({
      database: second,
      config: { retention: { defaultDays: 365, byUnit: {}, cron: NEVER } },
    });
  });
  afterEach(async () => {
    for (const queue of queues) await queue.stop();
    queues = [];
    await a.database.db.execute(sql`delete from pgboss.job`);
    await a.database.db.execute(sql`delete from pgboss.archive`);
    await a.database.db.execute(sql`delete from pgboss.schedule`);
  });
  afterAll(async () => {
    await b?.close();
    await second?.drop();
    await a?.close();
  });

  const start = async (app: FastifyInstance, options: Parameters<typeof startScheduledJobs>[1]) => {
    const queue = await startScheduledJobs(app, { pollingSeconds: 0.5, ...options });
    queues.push(queue);
    return queue;
  };

  it('two instances starting together purge once', async () => {
    await seedExpiredVerification(a.app);
    await Promise.all([start(a.app, {}), start(b.app, {})]);

    await expect
      .poll(async () => (await jobRows(a.app, RETENTION_JOB)).map((row) => row.state), {
        timeout: 15_000,
      })
      .toEqual(['completed']);
    // Both instances keep polling for a while: nothing else runs.
    await sleep(2_000);
    expect((await runsOf(a.app, RETENTION_JOB)) + (await runsOf(b.app, RETENTION_JOB))).toBe(1);
    expect(await jobRows(a.app, RETENTION_JOB)).toEqual([
      expect.objectContaining({ state: 'completed', singleton_key: 'at-start' }),
    ]);
    expect(await purgeEvents(a.app)).toBe(1);
  });

  it('the daily schedule fires once across both instances', async () => {
    // The schedule is this very minute; leave room for it to be seen before the minute ends.
    if (new Date().getSeconds() > 40) await sleep((61 - new Date().getSeconds()) * 1000);
    await seedExpiredVerification(a.app);
    const before = (await runsOf(a.app, RETENTION_JOB)) + (await runsOf(b.app, RETENTION_JOB));
    const eventsBefore = await purgeEvents(a.app);
    const options = { retentionAtStart: false, cronMonitorSeconds: 1 };
    const cron = cronOfThisMinute();
    a.app.config.retention.cron = cron;
    b.app.config.retention.cron = cron;
    try {
      await Promise.all([start(a.app, options), start(b.app, options)]);
      await expect
        .poll(async () => (await jobRows(a.app, RETENTION_JOB)).map((row) => row.state), {
          timeout: 15_000,
        })
        .toContain('completed');
      // Each instance looks at the schedule every second meanwhile.
      await sleep(3_000);
    } finally {
      a.app.config.retention.cron = NEVER;
      b.app.config.retention.cron = NEVER;
    }
    const runs = (await runsOf(a.app, RETENTION_JOB)) + (await runsOf(b.app, RETENTION_JOB));
    expect(await jobRows(a.app, RETENTION_JOB)).toEqual([
      expect.objectContaining({ state: 'completed', singleton_key: null }),
    ]);
    expect(runs - before).toBe(1);
    expect((await purgeEvents(a.app)) - eventsBefore).toBe(1);
  });

  it('the face sweep runs once per interval, whichever instance offers it', async () => {
    const sweeping = { audit: { ...a.app.config.audit, faceSweepMs: 1_000 } };
    Object.assign(a.app.config, sweeping);
    Object.assign(b.app.config, sweeping);
    const options = { retentionAtStart: false };
    const sweeps = async () =>
      (await runsOf(a.app, FACE_SWEEP_JOB)) + (await runsOf(b.app, FACE_SWEEP_JOB));
    const before = await sweeps();
    await Promise.all([start(a.app, options), start(b.app, options)]);
    await sleep(4_500);
    for (const queue of queues) await queue.stop();
    queues = [];
    // pg-boss marks a finished job completed without awaiting it: its handler
    // (and the metric) can be done while the row still says active.
    await expect
      .poll(
        async () => (await jobRows(a.app, FACE_SWEEP_JOB)).filter((row) => row.state === 'active'),
        {
          timeout: 5_000,
        },
      )
      .toEqual([]);

    const rows = await jobRows(a.app, FACE_SWEEP_JOB);
    const slots = new Set(rows.map((row) => row.singleton_on));
    // Both instances offered a run every second; one job per one-second slot was kept.
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(slots.size).toBe(rows.length);
    expect((await sweeps()) - before).toBe(rows.filter((row) => row.state === 'completed').length);
  });
});
