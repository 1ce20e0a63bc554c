/**
 * The real server process (the entry point of `npm start`) for the fault
 * tests: started on a data folder and, on PostgreSQL, a database of the
 * test's own, so it can be killed and started again on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { testDatabaseUrl } from '../helper';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export const FAULT_ADMIN = {
  email: 'admin@falhas.exame.local',
  password: 'Falhas#Teste-2026',
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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

export type ServerProcess = {
  baseUrl: string;
  pid: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: (signal: NodeJS.Signals) => void;
};

/** Starts the server and waits until /health/ready answers 200. */
export async function startServerProcess(options: {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')],
    {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'development',
        HOST: '127.0.0.1',
        PORT: String(port),
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
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`O servidor saiu ao iniciar:\n${output}`);
    }
    try {
      const response = await fetch(`${baseUrl}/health/ready`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`O servidor não ficou pronto em 150 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    pid: child.pid ?? 0,
    output: () => output,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
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
