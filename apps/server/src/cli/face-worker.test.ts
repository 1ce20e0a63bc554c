/**
 * `npm run face:worker` as real processes: on PostgreSQL, two workers drain
 * a burst of photos stored through the integration API (the API instance
 * sends the jobs and, FACE_READ_IN_SERVER=false, reads none), each photo
 * read exactly once: the ids each worker prints are all the photos between
 * them, none twice, and the database has every photo read. On any engine,
 * the worker refuses to start without PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { selectRows } from '../db/select-rows';
import type { JobQueue } from '../jobs/job-queue';
import { startScheduledJobs } from '../jobs/scheduled-jobs';
import { awaitingAuditPayload, createApiKeyFor, postPhoto, pushExams } from '../../test/exams';
import { fixturePath, hasFaceFixtures, listFixtures } from '../../test/faces/fixtures';
import { buildTestApp, testConfig, testDatabaseUrl, type TestApp } from '../../test/helper';
import { seedSignedIn } from '../../test/identity';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const WORKER = path.join(repoRoot, 'apps/server/src/cli/face-worker.ts');

type Worker = {
  lines: () => Array<Record<string, unknown>>;
  output: () => string;
  exited: Promise<number | null>;
  stop: () => void;
};

/** A `face-worker` process with `env` (plus PATH and HOME), started from its sources through tsx. */
function spawnWorker(env: Record<string, string>): Worker {
  let stdout = '';
  let stderr = '';
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    lines: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    output: () => `${stdout}\n${stderr}`,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}

describe('face worker', () => {
  it('refuses to start on the embedded database, saying why', async () => {
    const worker = spawnWorker({
      NODE_ENV: 'test',
      DATA_DIR: fs.mkdtempSync(path.join(tmpdir(), 'face-worker-')),
    });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain('precisa de um PostgreSQL (DATABASE_URL)');
  }, 60_000);
});

describe.skipIf(!testDatabaseUrl || !hasFaceFixtures('dev'))(
  'two face workers on one PostgreSQL',
  () => {
    let t: TestApp | undefined;
    let queue: JobQueue | undefined;
    const workers: Worker[] = [];

    afterAll(async () => {
      for (const worker of workers) worker.stop();
      await Promise.all(workers.map((worker) => worker.exited));
      await queue?.stop();
      await t?.close();
    });

    it('drain a burst of photos, each read exactly once', async () => {
      const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'face-workers-'));
      const fileKey = randomBytes(32);
      t = await buildTestApp({
        config: {
          dataDir,
          fileEncryptionKey: fileKey,
          fileStorage: { kind: 'disk', root: path.join(dataDir, 'files') },
          audit: { ...testConfig().audit, faceSweepMs: 0, faceReadInServer: false },
        },
      });
      const app = t.app;
      // The API instance sends each photo's job and reads none.
      queue = await startScheduledJobs(app, { pollingSeconds: 0.5, retentionAtStart: false });
      const admin = await seedSignedIn(app, { role: 'ADMIN', unit: 'DF' });
      const key = (await createApiKeyFor(app, admin.auth)).key;

      // The burst: 4 exams, each with a reference photo and captures (20 dev photos).
      const photos = listFixtures('dev').map((photo) =>
        fs.readFileSync(fixturePath('dev', photo.file)).toString('base64'),
      );
      const ids: string[] = [];
      for (let exam = 0; exam < 4; exam += 1) {
        const payload = awaitingAuditPayload();
        await pushExams(app, key, [payload]);
        const reference = await app.inject({
          method: 'PUT',
          url: `/api/Integration/exams/${payload.schedulingId}/reference-photo`,
          headers: { 'x-api-key': key },
          payload: { image: photos[exam] },
        });
        expect(reference.statusCode, reference.body).toBe(200);
        ids.push(reference.json().id);
        for (let index = 0; index < 4; index += 1) {
          const image = photos[(exam * 4 + index + 4) % photos.length]!;
          const sent = await postPhoto(app, key, payload.schedulingId, {
            image,
            capturedAt: new Date(Date.UTC(2026, 10, 20, 13, exam * 4 + index)).toISOString(),
          });
          expect(sent.statusCode, sent.body).toBe(200);
          ids.push(sent.json().id);
        }
      }
      const unique = new Set(ids);
      expect(unique.size).toBe(20);
      // Each job is sent right after its photo's commit, without holding the answer.
      const waiting = async () =>
        (
          await selectRows<{ n: number }>(
            t!.database.db,
            sql`select count(*)::int as n from pgboss.job where name = 'face-read' and state = 'created'`,
          )
        )[0]!.n;
      await expect.poll(waiting, { timeout: 10_000 }).toBe(20);

      const env = {
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATABASE_URL: t.database.url!,
        DATA_DIR: dataDir,
        FILE_ENCRYPTION_KEY: fileKey.toString('base64'),
        FACE_WORKERS: '1',
      };
      workers.push(spawnWorker(env), spawnWorker(env));
      const readBy = () =>
        workers.map(
          (worker) =>
            new Set(
              worker
                .lines()
                .filter((line) => line.msg === 'foto lida')
                .map((line) => String(line.photoId)),
            ),
        );
      await expect
        .poll(() => readBy().reduce((sum, set) => sum + set.size, 0), {
          timeout: 180_000,
          interval: 500,
        })
        .toBeGreaterThanOrEqual(20);
      for (const worker of workers) worker.stop();
      const codes = await Promise.all(workers.map((worker) => worker.exited));
      expect(codes, workers.map((worker) => worker.output()).join('\n---\n')).toEqual([0, 0]);

      const [first, second] = readBy() as [Set<string>, Set<string>];
      const lines = workers.flatMap((worker) =>
        worker.lines().filter((line) => line.msg === 'foto lida'),
      );
      // Each photo once: no id printed twice, none by both, all of them between the two.
      expect(lines).toHaveLength(20);
      expect([...first].filter((id) => second.has(id))).toEqual([]);
      expect(new Set([...first, ...second])).toEqual(unique);
      // Both took part (one job at a time each, 20 jobs).
      expect(first.size).toBeGreaterThan(0);
      expect(second.size).toBeGreaterThan(0);

      const rows = await selectRows<{ pending: number; unranked: number }>(
        t.database.db,
        sql`select
              (select count(*)::int from exam_photos where face_status = 'pending') as pending,
              (select count(*)::int from exams e where exists (select 1 from exam_photos p where p.exam_id = e.id)
                 and e.face_min_similarity_version is null) as unranked`,
      );
      expect(rows[0]).toEqual({ pending: 0, unranked: 0 });
      const jobs = await selectRows<{ state: string; n: number }>(
        t.database.db,
        sql`select state::text, count(*)::int as n from pgboss.job where name = 'face-read' group by state`,
      );
      expect(jobs).toEqual([{ state: 'completed', n: 20 }]);
    }, 300_000);
  },
);
