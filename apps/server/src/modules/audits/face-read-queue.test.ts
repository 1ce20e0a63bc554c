/**
 * The `face-read` queue on both database tiers, with the real face engine
 * and the dev photos: a photo stored through the integration API sends its
 * job after the commit and the instance's consumer reads it (the exam gets
 * its lowest similarity); a job delivered twice reads once; a send wakes
 * an idle consumer through the database's notification; the sweep
 * enqueues the unread photos without a job, and only those.
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFaceService } from '../../biometrics/face-pool';
import type { FaceService } from '../../biometrics/face-engine';
import { startJobBoss } from '../../db/job-boss';
import { selectRows } from '../../db/select-rows';
import type { JobQueue } from '../../jobs/job-queue';
import { startScheduledJobs } from '../../jobs/scheduled-jobs';
import { awaitingAuditPayload, createApiKeyFor, postPhoto, pushExams } from '../../../test/exams';
import { countingFaceService } from '../../../test/faces/counting-face-service';
import { fixturePath, hasFaceFixtures } from '../../../test/faces/fixtures';
import { buildTestApp, engineName, testConfig, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';
import {
  consumeFaceReads,
  enqueueUnreadPhotos,
  ensureFaceReadQueue,
  FACE_READ_QUEUE,
  sendFaceReads,
} from './face-read-queue.service';

const fixture = (file: string) => fs.readFileSync(fixturePath('dev', file)).toString('base64');
const quiet = { info: () => undefined, error: () => undefined };

describe.skipIf(!hasFaceFixtures('dev'))(`the face-read queue (${engineName})`, () => {
  let engine: FaceService;
  let counting: ReturnType<typeof countingFaceService>;
  let t: TestApp;
  let key: string;
  let queue: JobQueue | undefined;
  let boss: PgBoss | undefined;

  beforeAll(async () => {
    engine = await createFaceService({ inProcess: true });
    counting = countingFaceService(engine);
    t = await buildTestApp({
      faceService: counting.service,
      // No sweep here: each test says what sends the jobs.
      config: { audit: { ...testConfig().audit, faceSweepMs: 0 } },
    });
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    key = (await createApiKeyFor(t.app, admin.auth)).key;
  });
  afterEach(async () => {
    await queue?.stop();
    queue = undefined;
    await boss?.stop({ graceful: true, wait: true, timeout: 5000 });
    boss = undefined;
  });
  afterAll(async () => {
    counting?.stop();
    await t?.close();
    await engine?.close();
  });

  const db = () => t.database.db;

  /** An exam waiting for audit with its reference photo and `captures`; the photos' ids. */
  async function examWithPhotos(reference: string, captures: string[]) {
    const payload = awaitingAuditPayload();
    await pushExams(t.app, key, [payload]);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/Integration/exams/${payload.schedulingId}/reference-photo`,
      headers: { 'x-api-key': key },
      payload: { image: fixture(reference) },
    });
    expect(put.statusCode, put.body).toBe(200);
    const ids = [put.json().id as string];
    for (const [index, file] of captures.entries()) {
      const sent = await postPhoto(t.app, key, payload.schedulingId, {
        image: fixture(file),
        capturedAt: new Date(Date.UTC(2026, 10, 20, 13, index)).toISOString(),
      });
      expect(sent.statusCode, sent.body).toBe(200);
      ids.push(sent.json().id as string);
    }
    return { schedulingId: payload.schedulingId, ids };
  }

  const photoRows = (ids: string[]) =>
    selectRows<{ id: string; face_status: string; face_analysed_at: string | null }>(
      db(),
      sql`select id, face_status, face_analysed_at::text from exam_photos
            where id in ${sql.raw(`(${ids.map((id) => `'${id}'`).join(',')})`)} order by id`,
    );
  const similarityOf = async (schedulingId: string) =>
    (
      await selectRows<{ s: number | null }>(
        db(),
        sql`select face_min_similarity as s from exams where scheduling_id = ${schedulingId}`,
      )
    )[0]?.s ?? null;
  const jobsOf = (ids: string[]) =>
    selectRows<{ key: string; state: string }>(
      db(),
      sql`select singleton_key as key, state from pgboss.job where name = ${FACE_READ_QUEUE}
            and singleton_key in ${sql.raw(`(${ids.map((id) => `'${id}'`).join(',')})`)}`,
    );

  it('a stored photo sends its job and the instance reads it: the exam gets its lowest similarity', async () => {
    queue = await startScheduledJobs(t.app, { pollingSeconds: 0.5, retentionAtStart: false });
    counting.reset();
    const exam = await examWithPhotos('p01-1.jpg', ['p01-2.jpg', 'p05-1.jpg']);
    await expect
      .poll(async () => (await photoRows(exam.ids)).map((row) => row.face_status), {
        timeout: 60_000,
        interval: 250,
      })
      .not.toContain('pending');
    await expect.poll(() => similarityOf(exam.schedulingId), { timeout: 10_000 }).not.toBeNull();
    // One job per photo, each finished; each picture analysed once.
    await expect
      .poll(async () => (await jobsOf(exam.ids)).map((job) => job.state).sort(), {
        timeout: 10_000,
      })
      .toEqual(['completed', 'completed', 'completed']);
    expect(counting.passes.analysed).toHaveLength(3);
    expect(new Set(counting.passes.analysed).size).toBe(3);
  });

  it('a job delivered twice reads the photo once', async () => {
    queue = await startScheduledJobs(t.app, { pollingSeconds: 0.5, retentionAtStart: false });
    const exam = await examWithPhotos('p02-1.jpg', ['p02-2.jpg']);
    await expect
      .poll(async () => (await photoRows(exam.ids)).map((row) => row.face_status), {
        timeout: 60_000,
        interval: 250,
      })
      .not.toContain('pending');
    await expect
      .poll(async () => (await jobsOf(exam.ids)).map((job) => job.state), { timeout: 10_000 })
      .toEqual(['completed', 'completed']);
    const before = await photoRows(exam.ids);
    counting.reset();
    // The same jobs again (a retry after a lost completion, a second send).
    await queue.stop();
    queue = undefined;
    boss = await startJobBoss(t.database, { log: quiet, schedule: false });
    await ensureFaceReadQueue(boss);
    await sendFaceReads(boss, db(), exam.ids);
    const handled: string[] = [];
    await consumeFaceReads(
      boss,
      { db: db(), files: t.app.files, face: counting.service },
      { concurrency: 2, pollingSeconds: 0.5, log: quiet, onRead: (r) => handled.push(r.photoId) },
    );
    await expect
      .poll(
        async () => (await jobsOf(exam.ids)).filter((job) => job.state !== 'completed').length,
        { timeout: 15_000 },
      )
      .toBe(0);
    expect(await jobsOf(exam.ids)).toHaveLength(4);
    expect(handled).toEqual([]);
    expect(counting.passes.analysed).toEqual([]);
    expect(await photoRows(exam.ids)).toEqual(before);
  });

  it("another process's send wakes an idle consumer at once, long before its next poll", async () => {
    // Stored with no job queue running: nothing is sent yet.
    const exam = await examWithPhotos('p06-1.jpg', ['p07-1.jpg']);
    boss = await startJobBoss(t.database, { log: quiet, schedule: false });
    await ensureFaceReadQueue(boss);
    const handled: string[] = [];
    // A consumer that, once idle, would look again only after a minute.
    const consumption = await consumeFaceReads(
      boss,
      { db: db(), files: t.app.files, face: counting.service },
      {
        concurrency: 2,
        pollingSeconds: 60,
        log: quiet,
        listen: t.database.listen,
        onRead: (r) => handled.push(r.photoId),
      },
    );
    try {
      // Its first look found nothing; the send does not call its notify: only the database's notification reaches it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(handled).toEqual([]);
      await sendFaceReads(boss, db(), exam.ids);
      await expect
        .poll(() => [...handled].sort(), { timeout: 20_000, interval: 200 })
        .toEqual([...exam.ids].sort());
    } finally {
      await consumption.unlisten();
    }
  });

  it('the sweep enqueues the unread photos without a job, and only those', async () => {
    // Stored with no job queue running: nothing is sent, the photos wait unread.
    const exam = await examWithPhotos('p03-1.jpg', ['p04-1.jpg']);
    expect((await photoRows(exam.ids)).map((row) => row.face_status)).toEqual([
      'pending',
      'pending',
    ]);
    expect(await jobsOf(exam.ids)).toEqual([]);
    boss = await startJobBoss(t.database, { log: quiet, schedule: false });
    await ensureFaceReadQueue(boss);
    const deps = { db: db(), face: counting.service };
    expect(await enqueueUnreadPhotos(deps, boss, 500)).toBeGreaterThanOrEqual(2);
    expect((await jobsOf(exam.ids)).map((job) => job.state)).toEqual(['created', 'created']);
    // Their jobs are live: the next pass sends none again.
    expect(await enqueueUnreadPhotos(deps, boss, 500)).toBe(0);
    expect(await jobsOf(exam.ids)).toHaveLength(2);

    await consumeFaceReads(
      boss,
      { db: db(), files: t.app.files, face: counting.service },
      { concurrency: 2, pollingSeconds: 0.5, log: quiet },
    );
    await expect
      .poll(async () => (await photoRows(exam.ids)).map((row) => row.face_status), {
        timeout: 60_000,
        interval: 250,
      })
      .not.toContain('pending');
    await expect.poll(() => similarityOf(exam.schedulingId), { timeout: 10_000 }).not.toBeNull();
    expect(await enqueueUnreadPhotos(deps, boss, 500)).toBe(0);
  });
});
