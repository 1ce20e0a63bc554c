/** The configuration the server runs with, built once from the environment by loadConfig (env.ts). */
import type { PasswordPolicy, Role } from '@exame/shared';
import type { Env } from './env-schema';

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
  /** The API document is served at /docs. */
  apiDocs: boolean;
  /** Identity providers may have a plain-http issuer (SSO_ALLOW_HTTP; never by default in production). */
  ssoAllowHttp: boolean;
  /** The passphrase of `npm run backup` / `npm run restore` (BACKUP_KEY), if given. */
  backupKey: string | undefined;
  /** Days demonstration candidates and what the demonstration stored about them are kept. */
  demoRetentionDays: number;
  /** Empty when clients connect directly (`TRUST_PROXY=none` or unset outside production). */
  trustProxy: string[];
  shutdownTimeoutMs: number;
  publicAppUrl: string;
  /** Whether PUBLIC_APP_URL was given (production warns without it: links and passkeys would name localhost). */
  publicAppUrlSet: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** The unit of the first ADMIN of an empty database; undefined outside demo mode when not set. */
  adminFederativeUnit: string | undefined;
  session: { absoluteMs: number; idleMs: number };
  /** Resolved sessions are reused this long (0: off); see lib/session-cache.ts. */
  sessionCacheMs: number;
  /** How long a sign-in or re-authentication counts for sensitive actions (REAUTH_WINDOW_SECONDS). */
  reauthWindowMs: number;
  /**
   * The second factor: the roles whose password sign-ins need one
   * (MFA_REQUIRED_ROLES), and the WebAuthn relying party (the host and
   * origin of PUBLIC_APP_URL, where the passkeys are made and used).
   */
  secondFactor: { requiredRoles: readonly Role[]; rpId: string; origin: string; rpName: string };
  /** Browser events: per user and hour, and how many days they are kept. */
  activity: { clientEventsPerHour: number; webRetentionDays: number };
  /** Event streams: per-user bound on an instance, and how often their sessions are checked. */
  realtime: { maxStreamsPerUser: number; sessionCheckMs: number };
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
  /** Face verifications of one CPF by all users together per 15 minutes (FACE_VERIFY_CPF_LIMIT). */
  faceVerifyCpfLimit: number;
  /** How long an auditor's claim on an exam lasts. */
  auditClaimMs: number;
  audit: {
    twoPersonRule: boolean;
    recheckRate: number;
    faceSweepMs: number;
    /** Whether this server reads the `face-read` queue (FACE_READ_IN_SERVER). */
    faceReadInServer: boolean;
  };
  /** The one-to-many search of possible proxy test-takers (modules/fraud). */
  fraud: {
    threshold: number;
    windowDays: number;
  };
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
