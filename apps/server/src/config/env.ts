/**
 * The only reader of process.env. Every setting is parsed and typed here at
 * start-up; a bad value stops the process with a message naming the variable.
 */
import {
  DEFAULT_PASSWORD_POLICY,
  PRODUCT_NAME,
  type Role,
  FEDERATIVE_UNIT_CODES,
  parsePasswordPolicy,
  validatePassword,
  type PasswordPolicy,
} from '@exame/shared';
import { isCommonPassword } from '@exame/shared/common-passwords';
import { z } from 'zod';
import path from 'node:path';
import { envSchema, type Env } from './env-schema';
import { DEFAULT_FACE_MATCH_THRESHOLD } from './face-threshold';
import { FRAUD_MATCH_THRESHOLD, FRAUD_WINDOW_DAYS } from './fraud-threshold';
import type { AppConfig, FileStorageTarget } from './app-config';
import { REPO_ROOT } from './runtime-paths';

// The settings' one door: what the rest of the server reads of them.
export { BACKUP_KEY_MIN_LENGTH, type Env } from './env-schema';
export type { AppConfig, FileStorageTarget, ObjectStorageTarget } from './app-config';

const repoRoot = REPO_ROOT;

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

/** MFA_REQUIRED_ROLES (default ADMIN in production) and the WebAuthn relying party of PUBLIC_APP_URL. */
function secondFactorSettings(env: Env): AppConfig['secondFactor'] {
  const listed = env.MFA_REQUIRED_ROLES;
  const requiredRoles =
    listed === undefined
      ? env.NODE_ENV === 'production'
        ? (['ADMIN'] as const)
        : []
      : listed === '' || listed.toLowerCase() === 'none'
        ? []
        : [...new Set(listed.split(',').map((role) => role.trim() as Role))];
  const appUrl = new URL(env.PUBLIC_APP_URL ?? `http://localhost:${env.PORT}`);
  return {
    requiredRoles,
    rpId: appUrl.hostname,
    origin: appUrl.origin,
    rpName: PRODUCT_NAME,
  };
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
  // Production never gets demo accounts (and their shared password) unless asked for.
  const seedDemo =
    env.SEED_DEMO ?? (env.DATABASE_URL === undefined && env.NODE_ENV !== 'production');
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
  if (env.BACKUP_KEY && env.BACKUP_KEY === env.FILE_ENCRYPTION_KEY) {
    problems.push(
      'BACKUP_KEY: precisa ser diferente de FILE_ENCRYPTION_KEY (quem tiver uma cópia de segurança não deve ter também a chave dos arquivos)',
    );
  }
  if (env.ADMIN_FEDERATIVE_UNIT === 'DEMO' && !seedDemo) {
    problems.push('ADMIN_FEDERATIVE_UNIT: DEMO só com o modo de demonstração (SEED_DEMO=true)');
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
    apiDocs: env.API_DOCS ?? env.NODE_ENV !== 'production',
    ssoAllowHttp: env.SSO_ALLOW_HTTP ?? env.NODE_ENV !== 'production',
    backupKey: env.BACKUP_KEY,
    demoRetentionDays: env.DEMO_RETENTION_DAYS,
    trustProxy,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    publicAppUrl: (env.PUBLIC_APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    publicAppUrlSet: env.PUBLIC_APP_URL !== undefined,
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
    reauthWindowMs: env.REAUTH_WINDOW_SECONDS * 1000,
    secondFactor: secondFactorSettings(env),
    activity: {
      clientEventsPerHour: env.ACTIVITY_CLIENT_EVENTS_PER_HOUR,
      webRetentionDays: env.ACTIVITY_WEB_RETENTION_DAYS,
    },
    realtime: {
      maxStreamsPerUser: env.REALTIME_MAX_STREAMS_PER_USER,
      sessionCheckMs: Math.round(env.REALTIME_SESSION_CHECK_SECONDS * 1000),
    },
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
    faceVerifyCpfLimit: env.FACE_VERIFY_CPF_LIMIT,
    auditClaimMs: env.AUDIT_CLAIM_MINUTES * 60_000,
    audit: {
      twoPersonRule: env.AUDIT_TWO_PERSON_RULE,
      recheckRate: env.AUDIT_RECHECK_PERCENT / 100,
      faceSweepMs: env.FACE_ANALYSIS_SWEEP_SECONDS * 1000,
      faceReadInServer: env.FACE_READ_IN_SERVER,
    },
    fraud: {
      threshold: env.FRAUD_MATCH_THRESHOLD ?? FRAUD_MATCH_THRESHOLD,
      windowDays: env.FRAUD_WINDOW_DAYS ?? FRAUD_WINDOW_DAYS,
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

/**
 * The configuration of a process that cannot run without it (the server,
 * the face worker): a configuration error is printed in pt-BR and ends the
 * process with status 1; anything else is thrown.
 */
export function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
