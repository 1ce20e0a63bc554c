/**
 * What the benchmarks share: their command-line numbers and the database they
 * measure (PGlite in memory by default; BENCH_DATABASE_URL names a PostgreSQL
 * server, whose schema is dropped and migrated again).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Result } from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/client';
import { ensureReferenceData } from '../apps/server/src/db/seed/reference-data';

/** `--name N` of the command line, a positive number, or `fallback`. */
export function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * The environment of a production server on loopback, as loadConfig requires
 * it: clients connect directly, a fresh encryption key, and mail kept in the
 * outbox (the runs send none).
 */
export function productionEnv(): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'none',
    FILE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    MAIL_OUTBOX_ONLY: 'true',
    // The simulated users sign in with passwords (production asks ADMIN for a second factor).
    MFA_REQUIRED_ROLES: 'none',
  };
}

/** An empty, migrated database with the reference data, on the engine the run measures. */
export async function openBenchDatabase(options: { poolSize: number }): Promise<DatabaseHandle> {
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  const database = await openDatabase(
    postgresUrl
      ? { kind: 'postgres', url: postgresUrl, poolSize: options.poolSize }
      : { kind: 'pglite', dataDir: 'memory' },
  );
  if (postgresUrl) {
    await database.db.execute(sql`drop schema if exists public cascade`);
    await database.db.execute(sql`drop schema if exists drizzle cascade`);
    await database.db.execute(sql`create schema public`);
  }
  await database.migrate();
  await ensureReferenceData(database.db);
  return database;
}

const autocannonPath = createRequire(import.meta.url).resolve('autocannon');
// A process of its own: the server's event loop and CPU time are the server's alone.
const CLIENT_CODE = `
const autocannon = require(process.env.AUTOCANNON_PATH);
const options = JSON.parse(require('node:fs').readFileSync(process.env.AUTOCANNON_OPTIONS, 'utf8'));
autocannon(options, (error, result) => {
  if (error) throw error;
  process.stdout.write(JSON.stringify(result));
});
`;

export type LoadOptions = {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** Seconds before a request counts as a timeout (10 by default). */
  timeout?: number;
};

/** One autocannon run in a child process; its result. */
export function autocannon(options: LoadOptions): Promise<Result> {
  // The options go by file: a request body (a face burst) is too big for the environment.
  const file = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'exame-autocannon-')),
    'options.json',
  );
  fs.writeFileSync(file, JSON.stringify({ timeout: 10, ...options }));
  return new Promise<Result>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT_CODE], {
      env: { ...process.env, AUTOCANNON_PATH: autocannonPath, AUTOCANNON_OPTIONS: file },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`autocannon saiu com ${code}`));
      else resolve(JSON.parse(output) as Result);
    });
  }).finally(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));
}

/** The p-th percentile of sorted numbers (NaN for none). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/**
 * With BENCH_DATABASE_URL, a PostgreSQL database of the run's own (its
 * address, and `drop` for the end); without, none (the run uses PGlite).
 */
export async function ownPostgresDatabase(
  prefix: string,
): Promise<{ url: string | undefined; drop: () => Promise<void> }> {
  const server = process.env.BENCH_DATABASE_URL?.trim();
  if (!server) return { url: undefined, drop: async () => {} };
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: server });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export type SpawnedProductServer = {
  base: string;
  pid: number;
  /** From the spawn to the first 200 of `/health/ready`. */
  readyMs: number;
  stop: () => Promise<void>;
};

/**
 * The product's server as its own process on a free port: `main.ts` of the
 * tree at `root` under the tsx loader, or its compiled `dist/main.js`;
 * resolves once `/health/ready` answers (polled every `pollMs`).
 */
export async function spawnProductServer(options: {
  root: string;
  compiled?: boolean;
  env: NodeJS.ProcessEnv;
  pollMs?: number;
  label?: string;
}): Promise<SpawnedProductServer> {
  const port = await freeBenchPort();
  const entry = options.compiled
    ? [path.join(options.root, 'apps/server/dist/main.js')]
    : ['--import', 'tsx', path.join(options.root, 'apps/server/src/main.ts')];
  const label = options.label ?? (options.compiled ? 'dist' : 'tsx');
  let output = '';
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, entry, {
    cwd: options.root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...options.env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${label}: o servidor saiu ao iniciar:\n${output}`);
    if (performance.now() - started > 180_000) {
      await stop();
      throw new Error(`${label}: o servidor não ficou pronto:\n${output}`);
    }
    try {
      const response = await fetch(`${base}/health/ready`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
  return { base, pid: child.pid ?? 0, readyMs: performance.now() - started, stop };
}

function freeBenchPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
