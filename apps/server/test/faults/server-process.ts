/**
 * The real server process (the entry point of `npm start`) for the fault
 * tests: started on a data folder and, on PostgreSQL, a database of the
 * test's own, so it can be killed and started again on the same data.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { testDatabaseUrl } from '../helper';
import { spawnServer, type SpawnedServer } from '../spawn-server';

export const FAULT_ADMIN = {
  email: 'admin@falhas.exame.local',
  password: 'Falhas#Teste-2026',
};

/** A PostgreSQL database of the test's own (dropped by `drop`), or none on PGlite. */
export async function createProcessDatabase(): Promise<{
  url: string | undefined;
  drop: () => Promise<void>;
}> {
  if (!testDatabaseUrl) return { url: undefined, drop: async () => {} };
  const name = `faults_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: testDatabaseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export type ServerProcess = SpawnedServer;

/** Starts the server and waits until /health/ready answers 200. */
export async function startServerProcess(options: {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** Variables of the defaults below to leave unset (a start that relies on its own defaults). */
  unset?: readonly string[];
}): Promise<ServerProcess> {
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    ADMIN_EMAIL: FAULT_ADMIN.email,
    ADMIN_PASSWORD: FAULT_ADMIN.password,
    ADMIN_FEDERATIVE_UNIT: 'DF',
    WEB_DIST_DIR: path.join(options.dataDir, 'no-web'),
    FACE_WORKERS: '1',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  for (const name of options.unset ?? []) delete env[name];
  return spawnServer({ env, readyTimeoutMs: 150_000 });
}

type StartOptions = Parameters<typeof startServerProcess>[0];

/**
 * A fresh data folder (`prefix…` under the temporary folder) and, on
 * PostgreSQL, a database of its own for a describe block's server process,
 * made before its tests. After them the process last started, if still
 * `server`, is killed, and the folder and database are removed.
 */
export function freshProcessData(prefix: string) {
  let database: Awaited<ReturnType<typeof createProcessDatabase>> | undefined;
  const fixture = {
    dataDir: '',
    databaseUrl: undefined as string | undefined,
    server: undefined as ServerProcess | undefined,
    /** Starts the server on this folder and database: `server` from then on. */
    start: async (options: Omit<StartOptions, 'dataDir' | 'databaseUrl'> = {}) => {
      fixture.server = await startServerProcess({
        dataDir: fixture.dataDir,
        databaseUrl: fixture.databaseUrl,
        ...options,
      });
      return fixture.server;
    },
  };
  beforeAll(async () => {
    fixture.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    database = await createProcessDatabase();
    fixture.databaseUrl = database.url;
  });
  afterAll(async () => {
    fixture.server?.kill('SIGKILL');
    await fixture.server?.exited;
    await database?.drop();
    fs.rmSync(fixture.dataDir, { recursive: true, force: true });
  });
  return fixture;
}

/** Signs in as the first ADMIN and returns the Authorization header. */
export async function signInAdmin(baseUrl: string): Promise<{ authorization: string }> {
  const response = await fetch(`${baseUrl}/api/Auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(FAULT_ADMIN),
  });
  if (response.status !== 200) {
    throw new Error(`login falhou: ${response.status} ${await response.text()}`);
  }
  const { token } = (await response.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}
