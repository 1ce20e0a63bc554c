/**
 * The only reader of process.env. Every setting is parsed and typed here at
 * start-up; a bad value stops the process with a message naming the variable.
 */
import path from 'node:path';
import { z } from 'zod';

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
  /** Proxies whose X-Forwarded-For is trusted (comma-separated addresses or CIDRs). */
  TRUST_PROXY: z.string().trim().default(''),
  /** How long to wait for open requests on shutdown before closing anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
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
  trustProxy: string[];
  shutdownTimeoutMs: number;
};

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export class ConfigError extends Error {
  override name = 'ConfigError';
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
  return {
    nodeEnv: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
    publicApiBaseUrl: env.PUBLIC_API_BASE_URL,
    librasWidgetUrl: env.LIBRAS_WIDGET_URL,
    seedDemo: env.SEED_DEMO ?? env.DATABASE_URL === undefined,
    trustProxy: env.TRUST_PROXY.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  };
}
