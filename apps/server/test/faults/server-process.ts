/**
 * The real server process (the entry point of `npm start`) for the fault
 * tests: started on a data folder and, on PostgreSQL, a database of the
 * test's own, so it can be killed and started again on the same data.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
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
