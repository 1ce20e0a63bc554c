/**
 * Prometheus metrics of one instance (prom-client, a registry per app so that
 * two apps in one process, as in the tests, count apart). Served at
 * GET /metrics (plugins/metrics.ts); each instance behind the load balancer
 * is scraped on its own and Prometheus adds them up.
 *
 * Families (all prefixed `exame_`, plus Node's process metrics):
 * - `http_requests_total` and `http_request_duration_seconds`: per method,
 *   route pattern (`/api/User/:id`, never the concrete path, so CPFs and ids
 *   stay out) and status class (`2xx`...).
 * - `face_engine_queue_length`, `face_engine_in_flight` and
 *   `face_engine_analysis_seconds` (per outcome): the face engine's worker pool.
 * - `db_pool_connections` (total, idle, waiting) and the admission line of
 *   lib/admission.ts: `db_admission_requests` (active, queued) and
 *   `db_admission_refused_total`.
 * - `job_runs_total` (per job and outcome) and `job_duration_seconds`: the
 *   scheduled jobs this instance ran (jobs/job-queue.ts).
 * - `activity_chain_head_seq` and `activity_chain_head_hash48` (per chain):
 *   the number of each activity chain's last event and the first 48 bits of
 *   its hash (as a number, so the series stays one per chain), read from the
 *   database at each scrape: Prometheus keeps them outside the database, so
 *   a chain rewritten or cut short shows against what it recorded.
 */
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
} from 'prom-client';
import type { FaceService } from '../biometrics/face-engine';
import type { PoolStats } from '../db/client';

export type MetricsSources = {
  dbPool: () => PoolStats;
  admission: () => { active: number; queued: number; refused: number };
  /** Every activity chain's head, read at each scrape. */
  activityChains?: () => Promise<Array<{ chain: string; seq: number; hash: string }>>;
};

/** The first 48 bits of a hex hash as a number (exact in a double). */
export function hash48(hash: string): number {
  return hash.length >= 12 ? Number.parseInt(hash.slice(0, 12), 16) : 0;
}

export type JobOutcome = 'completed' | 'failed';

export type Metrics = {
  readonly registry: Registry;
  /** One answered HTTP request. */
  observeRequest: (method: string, route: string, statusCode: number, seconds: number) => void;
  /** One run of a job by this instance. */
  observeJob: (job: string, outcome: JobOutcome, seconds: number) => void;
  /**
   * Measures the face service's analyses (queue, in flight, latency) through
   * its observer; returns the way to stop (when the app closes).
   */
  measureFace: (face: FaceService) => () => void;
  /** The text Prometheus reads, and its content type. */
  render: () => Promise<{ contentType: string; body: string }>;
};

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const FACE_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 2, 5, 10];
const JOB_BUCKETS = [0.05, 0.25, 1, 5, 15, 60, 300, 1800];

export function statusClass(statusCode: number): string {
  return `${Math.floor(statusCode / 100)}xx`;
}

/** A counter whose value is read from a running total at each scrape. */
function totalFrom<T extends string>(
  config: Omit<CounterConfiguration<T>, 'collect'>,
  read: () => number,
): Counter<T> {
  let seen = 0;
  return new Counter<T>({
    ...config,
    collect() {
      const now = read();
      if (now > seen) this.inc(now - seen);
      seen = Math.max(seen, now);
    },
  });
}

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'exame_http_requests_total',
    help: 'Requisições HTTP respondidas, por método, rota (padrão) e classe de situação',
    labelNames: ['method', 'route', 'status_class'] as const,
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: 'exame_http_request_duration_seconds',
    help: 'Tempo de resposta das requisições HTTP, por método, rota (padrão) e classe de situação',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });

  const faces = new Set<FaceService>();
  let faceInFlight = 0;
  new Gauge({
    name: 'exame_face_engine_queue_length',
    help: 'Análises faciais aguardando uma thread livre do motor',
    registers: [registry],
    collect() {
      let queued = 0;
      for (const face of faces) queued += face.queueSize?.() ?? 0;
      this.set(queued);
    },
  });
  new Gauge({
    name: 'exame_face_engine_in_flight',
    help: 'Análises faciais pedidas e ainda sem resposta (em execução ou na fila)',
    registers: [registry],
    collect() {
      this.set(faceInFlight);
    },
  });
  const faceSeconds = new Histogram({
    name: 'exame_face_engine_analysis_seconds',
    help: 'Tempo de uma análise facial (fila incluída), por resultado',
    labelNames: ['outcome'] as const,
    buckets: FACE_BUCKETS,
    registers: [registry],
  });

  new Gauge({
    name: 'exame_db_pool_connections',
    help: 'Conexões do banco: total, ociosas e pedidos aguardando uma (PGlite: uma conexão, a thread do banco)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = sources.dbPool();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'exame_db_admission_requests',
    help: 'Requisições da API na fila de admissão ao banco: em atendimento e aguardando',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = sources.admission();
      this.set({ state: 'active' }, stats.active);
      this.set({ state: 'queued' }, stats.queued);
    },
  });
  totalFrom(
    {
      name: 'exame_db_admission_refused_total',
      help: 'Requisições recusadas pela fila de admissão ao banco (503 SERVER_BUSY)',
      registers: [registry],
    },
    () => sources.admission().refused,
  );

  const chainHeads = async () => (sources.activityChains ? await sources.activityChains() : []);
  new Gauge({
    name: 'exame_activity_chain_head_seq',
    help: 'Número do último evento de cada cadeia do registro de atividades',
    labelNames: ['chain'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const head of await chainHeads()) this.set({ chain: head.chain || '-' }, head.seq);
    },
  });
  new Gauge({
    name: 'exame_activity_chain_head_hash48',
    help: 'Primeiros 48 bits (12 dígitos hexadecimais) do hash do último evento de cada cadeia',
    labelNames: ['chain'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const head of await chainHeads()) {
        this.set({ chain: head.chain || '-' }, hash48(head.hash));
      }
    },
  });

  const jobRuns = new Counter({
    name: 'exame_job_runs_total',
    help: 'Execuções de trabalhos agendados nesta instância, por trabalho e resultado',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'exame_job_duration_seconds',
    help: 'Duração das execuções de trabalhos agendados nesta instância',
    labelNames: ['job'] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });

  return {
    registry,
    observeRequest(method, route, statusCode, seconds) {
      const labels = { method, route, status_class: statusClass(statusCode) };
      requests.inc(labels);
      requestSeconds.observe(labels, seconds);
    },
    observeJob(job, outcome, seconds) {
      jobRuns.inc({ job, outcome });
      jobSeconds.observe({ job }, seconds);
    },
    measureFace(face) {
      faces.add(face);
      const stop = face.observe?.({
        started() {
          faceInFlight += 1;
        },
        finished(outcome, seconds) {
          faceInFlight -= 1;
          faceSeconds.observe({ outcome }, seconds);
        },
      });
      return () => {
        faces.delete(face);
        stop?.();
      };
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
