/**
 * Test helper: builds the app on a fresh database. By default an in-memory
 * PGlite per test file; when TEST_DATABASE_URL is set, a new PostgreSQL
 * database is created for the file and dropped afterwards, so the same suites
 * run on both engines.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type BuildAppOptions } from '../src/app';
import { loadConfig, type AppConfig } from '../src/config/env';
import { openDatabase, type DatabaseHandle, type QueryObserver } from '../src/db/client';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import type { PasswordHasher } from '../src/lib/password-hash';
import type { FaceService } from '../src/biometrics/face-engine';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;
export const engineName = testDatabaseUrl ? 'postgres' : 'pglite';

export type TestDatabase = DatabaseHandle & {
  drop: () => Promise<void>;
  /** The PostgreSQL database's address (none for PGlite, which lives in this process only). */
  url?: string;
};

/**
 * The migrated database the run's global set-up made (test/global-setup.ts):
 * a PGlite tar or a PostgreSQL template. None when a file runs outside the
 * server project (then the migrations run here).
 */
function migratedTemplate(): string | undefined {
  try {
    return inject('migratedTemplate') || undefined;
  } catch {
    return undefined;
  }
}

/** `CREATE DATABASE`, copied from the template when there is one (retried while it is busy). */
async function createDatabase(admin: pg.Client, name: string, template: string | undefined) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
      return;
    } catch (error) {
      // 55006: the template is being accessed by another session (a copy in progress).
      if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** Opens an empty, migrated database on the engine under test. */
export async function createTestDatabase(
  options: { onQuery?: QueryObserver } = {},
): Promise<TestDatabase> {
  const template = migratedTemplate();
  if (!testDatabaseUrl) {
    const handle = await openDatabase({
      kind: 'pglite',
      dataDir: 'memory',
      ...(template ? { loadDataDir: fs.readFileSync(template) } : {}),
      ...options,
    });
    if (!template) await handle.migrate();
    return { ...handle, drop: handle.close };
  }
  const name = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await createDatabase(admin, name, template);
  await admin.end();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({
    kind: 'postgres',
    url: url.toString(),
    poolSize: 4,
    ...options,
  });
  if (!template) await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    drop: async () => {
      // The pool may already be closed by the test itself.
      await handle.close().catch(() => undefined);
      const cleanup = new pg.Client({ connectionString: testDatabaseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * The same database as another server process would open it: on PostgreSQL a
 * second pool and listening connection of its own; PGlite lives in one
 * process, so there the handle itself is shared. Closing it leaves the
 * database to its creator.
 */
export async function openSameDatabase(database: TestDatabase): Promise<TestDatabase> {
  if (!database.url) return { ...database, close: async () => {}, drop: async () => {} };
  const handle = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 4 });
  return { ...handle, url: database.url, drop: handle.close };
}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/exame-test-data',
    }),
    webDistDir: '/nonexistent-web-dist',
    ...overrides,
  };
}

export type TestApp = {
  app: FastifyInstance;
  database: TestDatabase;
  close: () => Promise<void>;
};

export type BuildTestAppOptions = {
  config?: Partial<AppConfig>;
  hasher?: PasswordHasher;
  faceService?: FaceService;
  linkRequests?: BuildAppOptions['linkRequests'];
  rateLimits?: BuildAppOptions['rateLimits'];
  /** Pino options (e.g. a stream the test reads); silent by default. */
  logger?: BuildAppOptions['logger'];
  /** Another app on the same database (a second instance behind the load balancer). */
  database?: TestDatabase;
  /** Runs before `ready()`, to register extra routes for a test. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
};

export async function buildTestApp(options: BuildTestAppOptions = {}): Promise<TestApp> {
  const shared = options.database;
  const database = shared ?? (await createTestDatabase());
  if (!shared) await ensureReferenceData(database.db);
  const app = await buildApp({
    config: testConfig(options.config),
    database,
    logger: options.logger ?? false,
    hasher: options.hasher,
    faceService: options.faceService,
    linkRequests: options.linkRequests,
    rateLimits: options.rateLimits,
  });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      // The app that created the database drops it.
      if (!shared) await database.drop();
    },
  };
}
