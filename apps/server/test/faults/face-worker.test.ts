/**
 * A slow or crashed face worker does not stall the server and is replaced.
 * The real engine runs in a pool of one worker (the worst case: no other
 * worker to take over) built from a test-only module that wraps the real
 * worker and, on demand, spins forever, exits or throws outside its task.
 *
 * - A worker stuck past FACE_TIMEOUT_MS is stopped: the enrolment answers
 *   503 FACE_TIMEOUT (with Retry-After) and stores nothing; meanwhile
 *   /health/live and a signed-in read answer; the next enrolment works on
 *   the replacement.
 * - A worker that exits, or dies from an error thrown outside its task,
 *   fails its task with 503 FACE_ENGINE_UNAVAILABLE, never the process, and
 *   the next analysis works.
 *
 * On the embedded database tier only (the engine does not use the database;
 * the suites rerun on PostgreSQL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FacePool } from '../../src/biometrics/face-pool';
import { devPhoto } from '../faces/captures';
import { answeredChallenge } from '../faces/takes';
import { buildTestApp, type TestApp } from '../helper';
import { seedSignedIn, seedUser } from '../identity';
import { faceEngineSkipReason } from '../faces/engine-tier';

const skipReason = faceEngineSkipReason('face worker fault tests');

const FAULTY_WORKER = path.resolve(import.meta.dirname, '../faces/faulty-face-worker.mjs');
/** Generous beside ~0.2 s per analysis, even on a loaded machine. */
const TASK_TIMEOUT_MS = 8000;

describe.skipIf(Boolean(skipReason))('face worker faults', () => {
  let dir = '';
  let control = '';
  let pool: FacePool;
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedSignedIn>>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-face-faults-'));
    control = path.join(dir, 'fault');
    pool = new FacePool({
      threads: 1,
      taskTimeoutMs: TASK_TIMEOUT_MS,
      worker: { file: FAULTY_WORKER, data: { faultControlFile: control } },
    });
    await pool.ready();
    t = await buildTestApp({ faceService: pool });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await pool?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const setFault = (fault: '' | 'spin' | 'exit' | 'throw') => fs.writeFileSync(control, fault);
  /** A live enrolment take of p01-1, made (on the pool) before any fault is set. */
  const enrolTake = (cpf: string) =>
    answeredChallenge(t.app, pool, admin.token, { purpose: 'enrolment', cpf }, 'p01-1.jpg');
  const enrol = async (cpf: string, take: Awaited<ReturnType<typeof enrolTake>>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Create',
      headers: admin.auth,
      payload: { cpf, ...take },
    });
  const templates = async (cpf: string) =>
    (
      (await t.database.db.execute(
        sql`select count(*)::int as n from biometric_templates where cpf = ${cpf}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows[0]?.n;

  it('stops a worker past FACE_TIMEOUT_MS, answers 503 FACE_TIMEOUT, keeps other routes answering and replaces it', async () => {
    const stuck = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    const take = await enrolTake(stuck.cpf);
    setFault('spin');
    const replacedBefore = pool.replaced;
    const pending = enrol(stuck.cpf, take);
    // While the only worker spins, the rest of the server answers.
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/SchedulingLocal',
      headers: admin.auth,
    });
    expect(read.statusCode).toBe(200);

    const response = await pending;
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toMatchObject({
      code: 'FACE_TIMEOUT',
      Error:
        'A verificação facial demorou demais e foi interrompida. Tente novamente em alguns instantes.',
    });
    expect(pool.replaced).toBe(replacedBefore + 1);
    // No half-written enrolment.
    expect(await templates(stuck.cpf)).toBe(0);

    setFault('');
    // The stopped take used its challenge up: the next one answers a new challenge.
    const again = await enrol(stuck.cpf, await enrolTake(stuck.cpf));
    expect(again.statusCode, again.body).toBe(201);
    expect(await templates(stuck.cpf)).toBe(1);
  }, 120_000);

  /** With `fault` set an analysis fails with 503 FACE_ENGINE_UNAVAILABLE; once cleared, the next one works. */
  const expectFailsThenRecovers = async (fault: 'exit' | 'throw') => {
    const photo = await devPhoto('p01-1.jpg');
    setFault(fault);
    await expect(pool.analyze(photo)).rejects.toMatchObject({
      code: 'FACE_ENGINE_UNAVAILABLE',
      status: 503,
    });
    setFault('');
    const analysis = await pool.analyze(photo);
    expect(analysis.descriptor.length).toBeGreaterThan(0);
  };

  it('replaces a worker that exits during its task; the next analysis works', async () => {
    await expectFailsThenRecovers('exit');
  }, 120_000);

  it('survives a worker killed by an error thrown outside its task; the next analysis works', async () => {
    await expectFailsThenRecovers('throw');
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
  }, 120_000);
});
