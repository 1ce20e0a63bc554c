/**
 * Every setting the server reads from the environment, with its default,
 * its bounds and what it means (the settings table of docs/operations.md
 * follows this schema). Parsed once, by loadConfig in env.ts.
 */
import { FEDERATIVE_UNIT_CODES, reportLocalPrefixesSchema, ROLES, type Role } from '@exame/shared';
import { z } from 'zod';

/** Shortest BACKUP_KEY (or key file of `npm run backup -- --key-file`) accepted. */
export const BACKUP_KEY_MIN_LENGTH = 16;

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.url().optional())
  .optional();

export const envSchema = z.object({
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
  /**
   * Seed the DEMO unit with sample data (and demo accounts of every role) on
   * an empty database. Default: on the embedded database outside production;
   * with NODE_ENV=production only when set to true.
   */
  SEED_DEMO: booleanFromString.optional(),
  /** Serve the API document at /docs. Default: on outside production, off in production. */
  API_DOCS: booleanFromString.optional(),
  /**
   * Accept identity providers (OpenID Connect) whose issuer is plain http.
   * Default: outside production only (a provider on the developer's machine
   * or started by a test); in production issuers must be https.
   */
  SSO_ALLOW_HTTP: booleanFromString.optional(),
  /**
   * The key (a passphrase of at least 16 characters) that `npm run backup`
   * encrypts backups with and `npm run restore` needs; kept apart from the
   * backups. The server itself never uses it.
   */
  BACKUP_KEY: z
    .string()
    .trim()
    .min(
      BACKUP_KEY_MIN_LENGTH,
      `use ao menos ${BACKUP_KEY_MIN_LENGTH} caracteres (ex.: openssl rand -base64 32)`,
    )
    .optional(),
  /**
   * Days the demonstration candidates (name, CPF, birth date, contact,
   * consent, scores) and their face enrolments and verifications are kept
   * after their last change; then purged by the retention job. Default 30.
   */
  DEMO_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
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
   * How long a sign-in or a re-authentication counts as a recent proof for the
   * sensitive actions (reopening a decision, disabling a user, changing a
   * role, integration keys, exporting the activity log, identity providers).
   * Default 300 s.
   */
  REAUTH_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /**
   * The roles whose password sign-ins need a second factor (authenticator app
   * or passkey), comma-separated (e.g. "ADMIN,auditor"), or "none". A user of
   * such a role without a factor enrols one at the next sign-in. Default:
   * ADMIN in production, none elsewhere (the demonstration signs in with the
   * password alone; anyone may still add a factor on "Segurança da conta").
   */
  MFA_REQUIRED_ROLES: z
    .string()
    .trim()
    .optional()
    .refine(
      (value) =>
        value === undefined ||
        value === '' ||
        value.toLowerCase() === 'none' ||
        value.split(',').every((role) => ROLES.includes(role.trim() as Role)),
      { message: `use perfis separados por vírgula (${ROLES.join(', ')}) ou "none"` },
    ),
  /**
   * Event streams (`GET api/Realtime/events`) one user may hold open on an
   * instance; opening one more ends the oldest. Default 10.
   */
  REALTIME_MAX_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * How often an instance checks the sessions behind its open event streams
   * (expiry, idle time, a revocation whose notice was lost); revocations,
   * disabling and role changes end the streams at once by NOTIFY. Default 5 s.
   */
  /** Browser events (page views, errors, stream logs) one user may send per hour. Default 600. */
  ACTIVITY_CLIENT_EVENTS_PER_HOUR: z.coerce.number().int().min(10).max(100_000).default(600),
  /**
   * Days the browser's events are kept; the server's events are kept as
   * evidence (their CPFs pseudonymised by RETENTION_DAYS). Default 90.
   */
  ACTIVITY_WEB_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  REALTIME_SESSION_CHECK_SECONDS: z.coerce.number().min(0.05).max(60).default(5),
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
  /**
   * The server reads the photos of the `face-read` queue itself (default);
   * false when dedicated `npm run face:worker` processes read them, so that
   * the API's instances keep their CPU for the requests.
   */
  FACE_READ_IN_SERVER: booleanFromString.default(true),
  /**
   * "Possíveis fraudes": fused distance under which two exams' faces are one
   * person in the one-to-many search (default FRAUD_MATCH_THRESHOLD, 0.43,
   * chosen on dev with the false cases a day it implies:
   * config/fraud-threshold.ts); lower is stricter.
   */
  FRAUD_MATCH_THRESHOLD: z.coerce.number().positive().max(0.69).optional(),
  /** Days an exam's face stays searchable (default 180; within the photos' retention). */
  FRAUD_WINDOW_DAYS: z.coerce.number().int().min(1).max(3650).optional(),
  /** How long a signed address of a stored image stays valid. */
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  /**
   * Face verifications of one CPF by every user of its unit together in 15
   * minutes. Each user also has 10 of their own per CPF, so one user's junk
   * never locks out the person (or a colleague); this ceiling, out of reach
   * of any one user, bounds what many accounts together may try. Default 50.
   */
  FACE_VERIFY_CPF_LIMIT: z.coerce
    .number()
    .int()
    .min(20, 'use ao menos 20 (o dobro do limite de cada usuário por CPF)')
    .max(10_000)
    .default(50),
  /** argon2id cost: memory in KiB and iterations (security guide: >= 19 MiB, t=2, p=1). */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(19_456).default(19_456),
  ARGON2_ITERATIONS: z.coerce.number().int().min(2).default(2),
});

export type Env = z.infer<typeof envSchema>;
