/**
 * GET /metrics: never public, read with METRICS_TOKEN or the operator's token
 * over loopback; after some traffic every family is there with plausible
 * values: requests per route pattern and status class, the face engine's
 * queue and latency (the real engine, one thread), the database pool and
 * admission line, the scheduled jobs' runs, the process.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceService } from '../biometrics/face-pool';
import type { FaceService } from '../biometrics/face-engine';
import { startScheduledJobs } from '../jobs/scheduled-jobs';
import { hash48 } from './metrics-registry';
import { OPERATOR_TOKEN_HEADER, operatorTokenFile } from '../lib/operator-token';
import { chainAnchors } from '../modules/activity/chain-upkeep.service';
import { sampleJpeg } from '../../test/exams';
import { buildTestApp, type TestApp } from '../../test/helper';
import { seedSignedIn } from '../../test/identity';

const METRICS_TOKEN = 'prometheus-raspa-metricas-0123456789';

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a Prometheus text answer (comments skipped). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`linha inválida: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length === 0) throw new Error(`sem amostra ${name} ${JSON.stringify(labels)}`);
  return found.reduce((sum, sample) => sum + sample.value, 0);
}

describe('metrics', () => {
  let t: TestApp;
  let face: FaceService;

  beforeAll(async () => {
    // The real engine on one worker thread: a burst of analyses has to queue.
    face = await createFaceService({ threads: 1 });
    t = await buildTestApp({
      faceService: face,
      config: {
        metricsToken: METRICS_TOKEN,
        // A short admission line, so that a burst is partly refused (503 SERVER_BUSY).
        database: {
          poolSize: 4,
          connectTimeoutMs: 5000,
          preparedStatements: true,
          admission: { maxActive: 1, maxQueued: 0, maxWaitMs: 1000 },
        },
      },
    });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await face?.close();
  });

  const scrape = async (
    headers: Record<string, string> = { authorization: `Bearer ${METRICS_TOKEN}` },
  ) => t.app.inject({ method: 'GET', url: '/metrics', headers });

  it('is never public: the metrics token or the operator over loopback', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    for (const headers of [
      {},
      admin.auth,
      { authorization: `Bearer ${METRICS_TOKEN}x` },
      { authorization: METRICS_TOKEN },
    ]) {
      const refused = await scrape(headers);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'METRICS_TOKEN_REQUIRED' });
      expect(refused.body).not.toContain('exame_');
    }
    const operator = readFileSync(operatorTokenFile(t.app.config.dataDir), 'utf8').trim();
    expect((await scrape({ [OPERATOR_TOKEN_HEADER]: operator })).statusCode).toBe(200);
    // The operator's token counts only from the machine itself.
    const remote = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { [OPERATOR_TOKEN_HEADER]: operator },
    });
    expect(remote.statusCode).toBe(401);
    const allowed = await scrape();
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['content-type']).toContain('text/plain');
  });

  it('after some traffic, every family with plausible values', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    for (let i = 0; i < 3; i += 1) await t.app.inject({ method: 'GET', url: '/health/live' });
    const user = await t.app.inject({
      method: 'GET',
      url: `/api/User/${admin.user.id}`,
      headers: admin.auth,
    });
    expect(user.statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/NaoExiste/52998224725' });
    // A burst against a line of one with no room to wait: some are refused.
    const burst = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.app.inject({ method: 'GET', url: '/api/User?pageSize=10&page=1', headers: admin.auth }),
      ),
    );
    const refused = burst.filter((response) => response.statusCode === 503).length;
    expect(refused).toBeGreaterThan(0);

    // Three analyses at once on one thread: two wait while the first runs.
    const picture = await sampleJpeg(320, 5);
    const analyses = Promise.allSettled([1, 2, 3].map(() => t.app.face.analyze(picture)));
    const during = parse((await scrape()).body);
    expect(valueOf(during, 'exame_face_engine_in_flight')).toBeGreaterThanOrEqual(1);
    expect(valueOf(during, 'exame_face_engine_queue_length')).toBeGreaterThanOrEqual(1);
    await analyses;

    // One run of the retention job (at start), counted where it ran.
    const jobs = await startScheduledJobs(t.app, { pollingSeconds: 0.5 });
    try {
      await expect
        .poll(
          async () => {
            const samples = parse((await scrape()).body);
            return samples.some(
              (sample) =>
                sample.name === 'exame_job_runs_total' &&
                sample.labels.job === 'retention-purge' &&
                sample.value === 1,
            );
          },
          { timeout: 20_000 },
        )
        .toBe(true);
    } finally {
      await jobs.stop();
    }

    const samples = parse((await scrape()).body);
    // Requests per route pattern and status class; never a concrete path.
    expect(
      valueOf(samples, 'exame_http_requests_total', {
        method: 'GET',
        route: '/health/live',
        status_class: '2xx',
      }),
    ).toBe(3);
    expect(
      valueOf(samples, 'exame_http_requests_total', {
        route: '/api/User/:id',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      valueOf(samples, 'exame_http_requests_total', { route: 'unmatched', status_class: '4xx' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'exame_http_requests_total', { route: '/api/User', status_class: '5xx' }),
    ).toBe(refused);
    expect(
      samples.some((sample) => Object.values(sample.labels).join().includes(admin.user.id)),
    ).toBe(false);
    expect(
      samples.some((sample) => Object.values(sample.labels).join().includes('52998224725')),
    ).toBe(false);
    const latencyCount = valueOf(samples, 'exame_http_request_duration_seconds_count', {
      route: '/health/live',
    });
    expect(latencyCount).toBe(3);
    expect(
      valueOf(samples, 'exame_http_request_duration_seconds_bucket', {
        route: '/health/live',
        le: '+Inf',
      }),
    ).toBe(3);
    expect(
      valueOf(samples, 'exame_http_request_duration_seconds_sum', { route: '/health/live' }),
    ).toBeGreaterThan(0);

    // The face engine: three analyses timed (a picture without a face is an answer, not an error).
    expect(valueOf(samples, 'exame_face_engine_analysis_seconds_count')).toBe(3);
    expect(valueOf(samples, 'exame_face_engine_analysis_seconds_sum')).toBeGreaterThan(0);
    expect(
      samples.some(
        (sample) =>
          sample.name === 'exame_face_engine_analysis_seconds_count' &&
          sample.labels.outcome === 'error',
      ),
    ).toBe(false);
    expect(valueOf(samples, 'exame_face_engine_in_flight')).toBe(0);
    expect(valueOf(samples, 'exame_face_engine_queue_length')).toBe(0);

    // The database: its connections and the admission line.
    expect(
      valueOf(samples, 'exame_db_pool_connections', { state: 'total' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'exame_db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(valueOf(samples, 'exame_db_admission_requests', { state: 'active' })).toBe(0);
    expect(valueOf(samples, 'exame_db_admission_requests', { state: 'queued' })).toBe(0);
    expect(valueOf(samples, 'exame_db_admission_refused_total')).toBe(refused);

    // The job and the process.
    expect(
      valueOf(samples, 'exame_job_runs_total', { job: 'retention-purge', outcome: 'completed' }),
    ).toBe(1);
    expect(valueOf(samples, 'exame_job_duration_seconds_count', { job: 'retention-purge' })).toBe(
      1,
    );
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(1_000_000);

    // The activity chains' heads, as the database has them at the scrape (an anchor kept outside).
    const heads = await chainAnchors(t.app.database.db);
    expect(heads.length).toBeGreaterThan(0);
    for (const head of heads) {
      const chain = head.chain || '-';
      expect(valueOf(samples, 'exame_activity_chain_head_seq', { chain })).toBe(head.seq);
      expect(valueOf(samples, 'exame_activity_chain_head_hash48', { chain })).toBe(
        hash48(head.hash),
      );
    }
  });
});
