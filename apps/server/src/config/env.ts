/**
 * The only reader of process.env. Every setting is parsed and typed here at
 * start-up; a bad value stops the process with a message naming the variable.
 */
import path from 'node:path';
import {
  DEFAULT_PASSWORD_POLICY,
  FEDERATIVE_UNIT_CODES,
  parsePasswordPolicy,
  reportLocalPrefixesSchema,
  validatePassword,
  type PasswordPolicy,
} from '@exame/shared';
import { isCommonPassword } from '@exame/shared/common-passwords';
import { z } from 'zod';
import { DEFAULT_FACE_MATCH_THRESHOLD } from '../biometrics/descriptor';

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.url().optional())
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where the embedded database and stored files live. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** A PostgreSQL server; when unset the embedded PGlite database is used. */
  DATABASE_URL: optionalUrl,
  /** The built web app; served with SPA fallback when the folder exists. */
  WEB_DIST_DIR: z.string().min(1).optional(),
  /** Public base address of the API as the browser sees it; empty means same origin. */
  PUBLIC_API_BASE_URL: z.string().trim().default(''),
  /** Script address of the Libras accessibility widget; the widget is off when unset. */
  LIBRAS_WIDGET_URL: optionalUrl,
  /** Seed the DEMO unit with sample data on an empty database. */
  SEED_DEMO: booleanFromString.optional(),
  /**
   * Proxies whose X-Forwarded-For is trusted (comma-separated addresses or
   * CIDRs); `none` says that clients connect directly. Required in production:
   * behind an unnamed proxy every client would share the proxy's address.
   */
  TRUST_PROXY: z.string().trim().optional(),
  /** How long to wait for open requests on shutdown before closing anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Address of the web app as people open it; used in e-mailed links. */
  PUBLIC_APP_URL: optionalUrl,
  /** SMTP server (smtp://user:pass@host:port); without it mail waits in the outbox (`npm run mail:outbox`). */
  SMTP_URL: optionalUrl,
  /** Production without SMTP_URL must say so: mail is then read only with `npm run mail:outbox`. */
  MAIL_OUTBOX_ONLY: booleanFromString.optional(),
  MAIL_FROM: z.string().trim().min(3).default('Exame Teórico <nao-responda@exame.local>'),
  /** The first ADMIN of an empty database; a random password is printed when unset. */
  ADMIN_EMAIL: z.email().optional(),
  /** Checked against PASSWORD_POLICY and the common-password list, like any other password. */
  ADMIN_PASSWORD: z.string().optional(),
  /** The unit of the first ADMIN; DEMO only in demo mode (SEED_DEMO). */
  ADMIN_FEDERATIVE_UNIT: z
    .string()
    .trim()
    .toUpperCase()
    .refine((value) => FEDERATIVE_UNIT_CODES.includes(value), 'sigla de unidade desconhecida')
    .optional(),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().default(12),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  /**
   * How long a resolved session is reused without reading the database (per
   * instance; 0 turns the cache off). Revocations on the same instance take
   * effect at once, on the others by NOTIFY; this bounds how long another
   * instance may miss one when that notice is lost. Default 5 s.
   */
  SESSION_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(5),
  /**
   * How long an answer of a cached read (exam list, report, user list, open
   * check-in) may be served again while no data changed (per instance; 0
   * turns the cache off). Any change made anywhere makes the answers stale at
   * once (lib/read-cache.ts); this bounds what depends on the clock (the
   * signed photo addresses of an open check-in, so at most a tenth of
   * SIGNED_URL_TTL_SECONDS) and what another instance's change could miss if
   * the listening connection died unnoticed. Default 2 s.
   */
  READ_CACHE_SECONDS: z.coerce.number().min(0).max(60).default(2),
  /** PostgreSQL only: connections of the pool. Default 10. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * PostgreSQL only: how long opening a connection may take before the
   * request is answered 503 (code DATABASE_UNAVAILABLE, with Retry-After),
   * in milliseconds. Default 5000.
   */
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  /**
   * Prepare each parameterised statement once (per PostgreSQL connection, or
   * in PGlite's worker) so it is parsed and planned once. Default true; false
   * behind a pooler that does not keep prepared statements (PgBouncer in
   * transaction mode before 1.21).
   */
  DB_PREPARED_STATEMENTS: booleanFromString.default(true),
  /**
   * Admission to the database (requests, not statements): at most this many
   * requests work against it at once; the others wait in line. Default 4 on
   * the embedded PGlite (one statement at a time anyway); on PostgreSQL the
   * default 0 means no bound (the pool queues).
   */
  DB_MAX_ACTIVE_REQUESTS: z.coerce.number().int().min(0).max(10_000).optional(),
  /**
   * Requests that may wait in that line; the next one is answered at once with
   * 503, code SERVER_BUSY and Retry-After. Default 128 (100 connections at
   * once still all wait their turn).
   */
  DB_MAX_QUEUED_REQUESTS: z.coerce.number().int().min(0).max(100_000).default(128),
  /**
   * Longest wait in that line, in milliseconds: a request that at the recent
   * pace would wait longer gets the same 503 at once, and one that waits
   * longer all the same gets it when the time is up. Default 3000.
   */
  DB_MAX_QUEUE_WAIT_MS: z.coerce.number().int().min(1).max(120_000).default(3000),
  /** Brute-force protection (Keycloak's shape): failures before a wait, the wait step and its cap. */
  LOGIN_FAILURE_FACTOR: z.coerce.number().int().min(1).default(5),
  LOGIN_IP_FAILURE_FACTOR: z.coerce.number().int().min(1).default(20),
  LOGIN_WAIT_INCREMENT_SECONDS: z.coerce.number().int().min(1).default(60),
  LOGIN_MAX_WAIT_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Password policy JSON (schema version 1); the default asks for at least 6 characters. */
  PASSWORD_POLICY: z.string().trim().optional(),
  /**
   * Per-unit prefix of scheduling locals that the exam report replaces by `DF.`
   * (JSON, e.g. {"DF":"DETRANDF-"}); unit X defaults to `X.`.
   */
  REPORT_LOCAL_PREFIXES: z
    .string()
    .trim()
    .optional()
    .transform((value, context): unknown => {
      if (!value) return {};
      try {
        return JSON.parse(value);
      } catch {
        context.addIssue({
          code: 'custom',
          message: 'precisa ser um objeto JSON, ex.: {"DF":"DETRANDF-"}',
        });
        return z.NEVER;
      }
    })
    .pipe(reportLocalPrefixesSchema),
  /**
   * AES-256-GCM key for stored files (face images, exam photos), base64 of 32
   * bytes. When unset, one is generated once under DATA_DIR/secrets.
   */
  FILE_ENCRYPTION_KEY: z
    .string()
    .trim()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'precisa ser 32 bytes em base64')
    .optional(),
  /**
   * Face match threshold on the fused distance (lower = stricter); the
   * default (DEFAULT_FACE_MATCH_THRESHOLD) was chosen on the dev photos.
   */
  FACE_MATCH_THRESHOLD: z.coerce.number().positive().max(2).optional(),
  /**
   * A stricter threshold for some units, as JSON: '{"DF":0.62}'. Each value
   * is above 0 and at most FACE_MATCH_THRESHOLD: a unit may be stricter than
   * the default, never looser.
   */
  FACE_MATCH_THRESHOLD_BY_UNIT: z.string().trim().optional(),
  /** Face-engine worker threads; default: cores - 1 (at least 1). */
  FACE_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * How long one face analysis may run, in milliseconds: past it the worker
   * is stopped and replaced and the request answers 503 FACE_TIMEOUT (other
   * routes never wait for it). Default 30000.
   */
  FACE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /**
   * LGPD retention of face data and exam photos, in days: verification
   * records, face enrolments not renewed and exam photos older than this are
   * purged automatically. Per unit: RETENTION_DAYS_BY_UNIT='{"DF":180}'.
   */
  RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  RETENTION_DAYS_BY_UNIT: z.string().trim().optional(),
  /**
   * When the daily retention purge runs (cron, five fields, São Paulo time);
   * with several instances it runs once per schedule (a job of the queue).
   * Default 03:00.
   */
  RETENTION_CRON: z
    .string()
    .trim()
    .regex(
      /^[\d*,/-]+( [\d*,/-]+){4}$/,
      'use uma expressão cron de cinco campos, ex.: "0 3 * * *" (todo dia às 03:00)',
    )
    .default('0 3 * * *'),
  /**
   * S3-compatible object storage of the files (face images, exam photos),
   * e.g. s3://bucket/prefix?endpoint=https://s3.example&region=sa-east-1&forcePathStyle=true.
   * Files are sealed (AES-256-GCM) before upload. Unset: DATA_DIR/files.
   */
  FILE_STORAGE_URL: z.string().trim().optional(),
  /** Credentials of FILE_STORAGE_URL (else the URL's user and password, else the SDK's default chain). */
  FILE_STORAGE_ACCESS_KEY_ID: z.string().trim().optional(),
  FILE_STORAGE_SECRET_ACCESS_KEY: z.string().trim().optional(),
  /**
   * Bearer token Prometheus sends to GET /metrics (at least 24 characters).
   * Without it /metrics answers only the operator (loopback with the token of
   * DATA_DIR/secrets/operator.token).
   */
  METRICS_TOKEN: z.string().trim().min(24, 'use ao menos 24 caracteres').optional(),
  /** How long an auditor's claim on an exam of the audit queue lasts (load_audit), in minutes. */
  AUDIT_CLAIM_MINUTES: z.coerce.number().int().min(5).max(480).default(30),
  /** Two-person rule: a disqualification takes effect only when a second auditor confirms it. */
  AUDIT_TWO_PERSON_RULE: booleanFromString.default(false),
  /** Share of approvals, in percent, drawn at random for a re-check by a different auditor. */
  AUDIT_RECHECK_PERCENT: z.coerce.number().min(0).max(100).default(10),
  /**
   * Every so many seconds the server reads the faces of the photos of exams
   * waiting for audit (the queue's similarity order); 0 turns it off (the
   * audit screen still reads them when opened).
   */
  FACE_ANALYSIS_SWEEP_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** How long a signed address of a stored image stays valid. */
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  /** argon2id cost: memory in KiB and iterations (security guide: >= 19 MiB, t=2, p=1). */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(19_456).default(19_456),
  ARGON2_ITERATIONS: z.coerce.number().int().min(2).default(2),
});

export type Env = z.infer<typeof envSchema>;

export type AppConfig = {
  nodeEnv: Env['NODE_ENV'];
  host: string;
  port: number;
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  databaseUrl: string | undefined;
  webDistDir: string;
  publicApiBaseUrl: string;
  librasWidgetUrl: string | undefined;
  seedDemo: boolean;
  /** Empty when clients connect directly (`TRUST_PROXY=none` or unset outside production). */
  trustProxy: string[];
  shutdownTimeoutMs: number;
  publicAppUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** The unit of the first ADMIN of an empty database; undefined outside demo mode when not set. */
  adminFederativeUnit: string | undefined;
  session: { absoluteMs: number; idleMs: number };
  /** Resolved sessions are reused this long (0: off); see lib/session-cache.ts. */
  sessionCacheMs: number;
  /** Answers of cached reads are served again at most this long (0: off); see lib/read-cache.ts. */
  readCacheMs: number;
  database: {
    /** PostgreSQL pool size. */
    poolSize: number;
    /** PostgreSQL: how long opening a connection may take. */
    connectTimeoutMs: number;
    /** Statements prepared once (per PostgreSQL connection, or in PGlite's worker). */
    preparedStatements: boolean;
    /** Requests admitted to the database at once (0: no bound) and the line behind them. */
    admission: { maxActive: number; maxQueued: number; maxWaitMs: number };
  };
  loginThrottle: {
    failureFactor: number;
    ipFailureFactor: number;
    waitIncrementMs: number;
    maxWaitMs: number;
  };
  passwordPolicy: PasswordPolicy;
  argon2: { memoryCost: number; timeCost: number };
  reportLocalPrefixes: Readonly<Record<string, string>>;
  fileEncryptionKey: Buffer | undefined;
  face: {
    matchThreshold: number | undefined;
    /** A unit's own, stricter threshold (FACE_MATCH_THRESHOLD_BY_UNIT). */
    matchThresholdByUnit: Readonly<Record<string, number>>;
    workers: number | undefined;
    timeoutMs: number;
  };
  retention: { defaultDays: number; byUnit: Record<string, number>; cron: string };
  /** Where stored files live: DATA_DIR/files, or S3-compatible object storage. */
  fileStorage: FileStorageTarget;
  /** The bearer token of GET /metrics (Prometheus), if any. */
  metricsToken: string | undefined;
  signedUrlTtlMs: number;
  /** How long an auditor's claim on an exam lasts. */
  auditClaimMs: number;
  audit: { twoPersonRule: boolean; recheckRate: number; faceSweepMs: number };
};

export type ObjectStorageTarget = {
  kind: 's3';
  bucket: string;
  /** Key prefix of every object, without leading or trailing slash ('' for none). */
  prefix: string;
  /** The service's address (MinIO, Ceph, a provider's S3 endpoint); unset: AWS. */
  endpoint: string | undefined;
  region: string;
  /** Path-style addresses (endpoint/bucket/key), which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's default chain (instance role, web identity...). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
};
export type FileStorageTarget = { kind: 'disk'; root: string } | ObjectStorageTarget;

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function parseRetentionByUnit(value: string | undefined): Record<string, number> {
  if (!value) return {};
  const parsed = z
    .record(z.string().regex(/^[A-Z]{2,4}$/), z.number().int().min(1).max(3650))
    .safeParse(
      (() => {
        try {
          return JSON.parse(value) as unknown;
        } catch {
          return null;
        }
      })(),
    );
  if (!parsed.success) {
    throw new ConfigError(
      'Configuração inválida:\n  - RETENTION_DAYS_BY_UNIT: use JSON com a sigla e os dias, ex.: {"DF":180}',
    );
  }
  return parsed.data;
}

const FACE_THRESHOLD_BY_UNIT_HELP =
  'use JSON com a sigla da unidade e o limiar da distância facial, ex.: {"DF":0.62}';

/** FACE_MATCH_THRESHOLD_BY_UNIT: each unit's threshold above 0 and no looser than the default. */
function parseFaceThresholdByUnit(
  value: string | undefined,
  defaultThreshold: number,
): Record<string, number> {
  if (!value) return {};
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    json = null;
  }
  const parsed = z.record(z.string().regex(/^[A-Z]{2,4}$/), z.number()).safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      `Configuração inválida:\n  - FACE_MATCH_THRESHOLD_BY_UNIT: ${FACE_THRESHOLD_BY_UNIT_HELP}`,
    );
  }
  const shown = (n: number) => n.toLocaleString('pt-BR', { maximumFractionDigits: 4 });
  const problems = Object.entries(parsed.data).flatMap(([unit, threshold]) => {
    if (!FEDERATIVE_UNIT_CODES.includes(unit)) return [`${unit}: sigla de unidade desconhecida`];
    if (!Number.isFinite(threshold) || threshold <= 0) {
      return [`${unit}: o limiar precisa ser maior que 0 (recebido ${shown(threshold)})`];
    }
    if (threshold > defaultThreshold) {
      return [
        `${unit}: ${shown(threshold)} é mais permissivo que FACE_MATCH_THRESHOLD (${shown(defaultThreshold)}); uma unidade só pode usar um limiar igual ou menor (menor = mais rigoroso)`,
      ];
    }
    return [];
  });
  if (problems.length > 0) {
    throw new ConfigError(
      `Configuração inválida:\n${problems.map((line) => `  - FACE_MATCH_THRESHOLD_BY_UNIT: ${line}`).join('\n')}`,
    );
  }
  return parsed.data;
}

const FILE_STORAGE_URL_HELP =
  'use s3://bucket/prefixo?endpoint=https://...&region=...&forcePathStyle=true';

/** FILE_STORAGE_URL (and its credentials) as a storage target; see the README. */
export function parseFileStorage(env: Env, dataDir: string): FileStorageTarget {
  const raw = env.FILE_STORAGE_URL;
  if (!raw) return { kind: 'disk', root: path.join(dataDir, 'files') };
  const problem = (why: string) =>
    new ConfigError(`Configuração inválida:\n  - FILE_STORAGE_URL: ${why}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw problem(FILE_STORAGE_URL_HELP);
  }
  if (url.protocol !== 's3:')
    throw problem(`esquema ${url.protocol} não suportado; ${FILE_STORAGE_URL_HELP}`);
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw problem(`nome de bucket inválido; ${FILE_STORAGE_URL_HELP}`);
  }
  const known = new Set(['endpoint', 'region', 'forcePathStyle']);
  const unknown = [...url.searchParams.keys()].filter((name) => !known.has(name));
  if (unknown.length > 0) throw problem(`parâmetro desconhecido: ${unknown.join(', ')}`);
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(endpoint);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      throw problem('endpoint precisa ser um endereço http(s)');
    }
  }
  const pathStyle = url.searchParams.get('forcePathStyle');
  if (pathStyle !== null && !['true', 'false'].includes(pathStyle)) {
    throw problem('forcePathStyle precisa ser true ou false');
  }
  const fromUrl = url.username
    ? {
        accessKeyId: decodeURIComponent(url.username),
        secretAccessKey: decodeURIComponent(url.password),
      }
    : undefined;
  const id = env.FILE_STORAGE_ACCESS_KEY_ID;
  const secret = env.FILE_STORAGE_SECRET_ACCESS_KEY;
  if (Boolean(id) !== Boolean(secret)) {
    throw new ConfigError(
      'Configuração inválida:\n  - FILE_STORAGE_ACCESS_KEY_ID / FILE_STORAGE_SECRET_ACCESS_KEY: informe as duas',
    );
  }
  return {
    kind: 's3',
    bucket,
    prefix: decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, ''),
    endpoint,
    region: url.searchParams.get('region') ?? 'us-east-1',
    forcePathStyle: pathStyle === 'true',
    credentials: id && secret ? { accessKeyId: id, secretAccessKey: secret } : fromUrl,
  };
}

/**
 * What production must state explicitly instead of falling back to a default
 * that is fine on a laptop and wrong behind a load balancer.
 */
function productionProblems(env: Env): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (env.TRUST_PROXY === undefined || env.TRUST_PROXY === '') {
    problems.push(
      'TRUST_PROXY: obrigatória em produção; informe os IPs/CIDRs do proxy reverso, ou "none" se os clientes se conectam diretamente',
    );
  }
  if (!env.FILE_ENCRYPTION_KEY) {
    problems.push(
      'FILE_ENCRYPTION_KEY: obrigatória em produção (32 bytes em base64), guardada fora de DATA_DIR; gere com `openssl rand -base64 32`',
    );
  }
  if (!env.SMTP_URL && env.MAIL_OUTBOX_ONLY !== true) {
    problems.push(
      'SMTP_URL: obrigatória em produção; sem ela, defina MAIL_OUTBOX_ONLY=true e leia os e-mails pendentes com `npm run mail:outbox`',
    );
  }
  return problems;
}

function adminPasswordProblems(password: string | undefined, policy: PasswordPolicy): string[] {
  if (password === undefined) return [];
  const result = validatePassword(policy, password, { isCommonPassword });
  if (result.isValid) return [];
  const unmet = result.criteria.filter((criterion) => !criterion.met).map((c) => c.label);
  return [`ADMIN_PASSWORD: não atende à política de senhas (${unmet.join('; ')})`];
}

/** Parses an environment (process.env by default) into the typed configuration. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  - ${issue.path.join('.') || '(ambiente)'}: ${issue.message}`,
    );
    throw new ConfigError(`Configuração inválida:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const seedDemo = env.SEED_DEMO ?? env.DATABASE_URL === undefined;
  let passwordPolicy = DEFAULT_PASSWORD_POLICY;
  if (env.PASSWORD_POLICY) {
    try {
      passwordPolicy = parsePasswordPolicy(JSON.parse(env.PASSWORD_POLICY));
    } catch (error) {
      throw new ConfigError(
        `Configuração inválida:\n  - PASSWORD_POLICY: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const problems = [
    ...productionProblems(env),
    ...adminPasswordProblems(env.ADMIN_PASSWORD, passwordPolicy),
  ];
  if (env.ADMIN_FEDERATIVE_UNIT === 'DEMO' && !seedDemo) {
    problems.push('ADMIN_FEDERATIVE_UNIT: DEMO só com o modo de demonstração (SEED_DEMO=true)');
  }
  // A cached open check-in carries signed photo addresses: they must outlive the cached answer by far.
  if (env.READ_CACHE_SECONDS * 10 > env.SIGNED_URL_TTL_SECONDS) {
    problems.push(
      `READ_CACHE_SECONDS: ${env.READ_CACHE_SECONDS} passa de um décimo de SIGNED_URL_TTL_SECONDS (${env.SIGNED_URL_TTL_SECONDS}); uma resposta em cache entregaria endereços de foto quase vencidos`,
    );
  }
  if (problems.length > 0) {
    throw new ConfigError(
      `Configuração inválida:\n${problems.map((line) => `  - ${line}`).join('\n')}`,
    );
  }
  const trustProxy = (env.TRUST_PROXY ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '' && entry.toLowerCase() !== 'none');
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    nodeEnv: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
    publicApiBaseUrl: env.PUBLIC_API_BASE_URL,
    librasWidgetUrl: env.LIBRAS_WIDGET_URL,
    seedDemo,
    trustProxy,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    publicAppUrl: (env.PUBLIC_APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    adminEmail: env.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD,
    adminFederativeUnit: env.ADMIN_FEDERATIVE_UNIT ?? (seedDemo ? 'DEMO' : undefined),
    session: {
      absoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000,
      idleMs: env.SESSION_IDLE_MINUTES * 60_000,
    },
    sessionCacheMs: Math.round(env.SESSION_CACHE_SECONDS * 1000),
    readCacheMs: Math.round(env.READ_CACHE_SECONDS * 1000),
    database: {
      poolSize: env.DB_POOL_SIZE,
      connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
      preparedStatements: env.DB_PREPARED_STATEMENTS,
      admission: {
        maxActive: env.DB_MAX_ACTIVE_REQUESTS ?? (env.DATABASE_URL ? 0 : 4),
        maxQueued: env.DB_MAX_QUEUED_REQUESTS,
        maxWaitMs: env.DB_MAX_QUEUE_WAIT_MS,
      },
    },
    loginThrottle: {
      failureFactor: env.LOGIN_FAILURE_FACTOR,
      ipFailureFactor: env.LOGIN_IP_FAILURE_FACTOR,
      waitIncrementMs: env.LOGIN_WAIT_INCREMENT_SECONDS * 1000,
      maxWaitMs: env.LOGIN_MAX_WAIT_SECONDS * 1000,
    },
    passwordPolicy,
    argon2: { memoryCost: env.ARGON2_MEMORY_KIB, timeCost: env.ARGON2_ITERATIONS },
    reportLocalPrefixes: env.REPORT_LOCAL_PREFIXES,
    fileEncryptionKey: env.FILE_ENCRYPTION_KEY
      ? Buffer.from(env.FILE_ENCRYPTION_KEY, 'base64')
      : undefined,
    signedUrlTtlMs: env.SIGNED_URL_TTL_SECONDS * 1000,
    auditClaimMs: env.AUDIT_CLAIM_MINUTES * 60_000,
    audit: {
      twoPersonRule: env.AUDIT_TWO_PERSON_RULE,
      recheckRate: env.AUDIT_RECHECK_PERCENT / 100,
      faceSweepMs: env.FACE_ANALYSIS_SWEEP_SECONDS * 1000,
    },
    face: {
      matchThreshold: env.FACE_MATCH_THRESHOLD,
      matchThresholdByUnit: parseFaceThresholdByUnit(
        env.FACE_MATCH_THRESHOLD_BY_UNIT,
        env.FACE_MATCH_THRESHOLD ?? DEFAULT_FACE_MATCH_THRESHOLD,
      ),
      workers: env.FACE_WORKERS,
      timeoutMs: env.FACE_TIMEOUT_MS,
    },
    retention: {
      defaultDays: env.RETENTION_DAYS,
      byUnit: parseRetentionByUnit(env.RETENTION_DAYS_BY_UNIT),
      cron: env.RETENTION_CRON,
    },
    fileStorage: parseFileStorage(env, dataDir),
    metricsToken: env.METRICS_TOKEN,
  };
}
