/**
 * Starts the real server as `npm start` runs it (compiled:
 * `node apps/server/dist/main.js`, made by `npm run build`) on a free port
 * with its own data folder, and waits until it is ready.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { SERVER_DIST_ENTRY } from '../../apps/server/build/server-build.mjs';
import { spawnServer, waitAtRest, type SpawnedServer } from '../../apps/server/test/spawn-server';

export { freePort } from '../../apps/server/test/spawn-server';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export type RunningServer = {
  baseUrl: string;
  port: number;
  dataDir: string;
  output: () => string;
  /** Sends SIGTERM, waits for the exit, and returns the exit code (null if it had to be killed). */
  stop: () => Promise<number | null>;
};

/**
 * The settings that decide what a first start writes (db/seed/first-start.ts);
 * the others only configure the running server.
 */
const FIRST_START_SETTINGS = [
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'ADMIN_FEDERATIVE_UNIT',
  'SEED_DEMO',
];

/**
 * The name of the seeded data folder a server with `env` starts from, or null
 * when it does not start from one (a PostgreSQL database, or a file key of its
 * own). The São Paulo day is part of it: the demonstration's exams are of today.
 */
function templateName(env: Record<string, string>): string | null {
  if (env.DATABASE_URL !== undefined || env.FILE_ENCRYPTION_KEY !== undefined) return null;
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
    new Date(),
  );
  const settings = FIRST_START_SETTINGS.map((name) => `${name}=${env[name] ?? ''}`);
  return createHash('sha256')
    .update([day, ...settings].join('\n'))
    .digest('hex')
    .slice(0, 16);
}

/**
 * The server under test is the compiled one: its process runs
 * `apps/server/dist/main.js` with no TypeScript loader (read from the
 * process's own command line where the system shows it).
 */
function assertCompiled(child: SpawnedServer): void {
  const procFile = `/proc/${child.pid}/cmdline`;
  const command = fs.existsSync(procFile)
    ? fs.readFileSync(procFile, 'utf8').split('\0').filter(Boolean)
    : [...child.command];
  if (command[1] !== SERVER_DIST_ENTRY || command.some((arg) => arg.includes('tsx'))) {
    child.kill('SIGKILL');
    throw new Error(`O servidor dos testes e2e não é o compilado: ${command.join(' ')}`);
  }
}

async function stopped(child: SpawnedServer): Promise<number | null> {
  if (!child.ended()) {
    child.kill('SIGTERM');
    await Promise.race([child.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    child.kill('SIGKILL');
  }
  return child.ended() ? (await child.exited).code : null;
}

/**
 * Waits until the server has read the faces of the stored photos: its first
 * `face-sweep` run has sent them to the `face-read` queue (the job-run
 * counter of GET /metrics), and the process has come to rest. A copy of the
 * folder then starts with them read, instead of every spec's server reading
 * the demonstration's photos again (about half a minute of a core each).
 */
async function demoPhotosRead(child: SpawnedServer, metricsToken: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const response = await fetch(`${child.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`GET /metrics respondeu ${response.status}: ${text}`);
    if (/^exame_job_runs_total\{job="face-sweep",outcome="completed"\} [1-9]/m.test(text)) break;
    if (Date.now() > deadline) {
      throw new Error(`A varredura facial não rodou em 120 s:\n${child.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await waitAtRest(child.pid, { windowMs: 3000, timeoutMs: 180_000 });
}

/**
 * The seeded data folder for `env`, made on first use: a server started on an
 * empty folder migrates and seeds, stops, and its folder is kept for the next
 * specs of the run with the same first-start settings.
 */
async function seededTemplate(name: string, env: Record<string, string>): Promise<string> {
  const template = path.join(inject('dataTemplates'), name);
  // Specs run two at a time: the first to take the lock seeds, the other waits for its folder.
  const lock = `${template}.lock`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (fs.existsSync(template)) return template;
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > deadline) throw new Error(`Os dados semeados ${name} não ficaram prontos.`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (fs.existsSync(template)) return template;
    return await seedTemplate(template, env);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function seedTemplate(template: string, env: Record<string, string>): Promise<string> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-e2e-seed-'));
  const metricsToken = randomBytes(24).toString('hex');
  const child = await spawnServer({
    // It reads the photos whatever the first spec of its kind asks of its own server.
    env: {
      ...env,
      DATA_DIR: folder,
      METRICS_TOKEN: metricsToken,
      FACE_ANALYSIS_SWEEP_SECONDS: '30',
      FACE_READ_IN_SERVER: 'true',
    },
    readyTimeoutMs: 90_000,
    build: 'dist',
  });
  assertCompiled(child);
  // Only the demonstration stores photos on a first start: without it there is nothing to read.
  if (env.SEED_DEMO === 'true') await demoPhotosRead(child, metricsToken);
  const code = await stopped(child);
  if (code !== 0)
    throw new Error(`O servidor que semeia os dados não parou bem:\n${child.output()}`);
  fs.renameSync(folder, template);
  return template;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('A aplicação web não foi gerada: rode `npm run build` antes dos testes e2e.');
  }
  const settings: Record<string, string> = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // What production must state: clients connect directly, a key from outside
    // DATA_DIR, and mail read from the outbox unless a spec gives an SMTP server.
    TRUST_PROXY: 'none',
    MAIL_OUTBOX_ONLY: 'true',
    // Production seeds the demonstration only when asked: the specs use it unless they say not.
    SEED_DEMO: 'true',
    // Production asks ADMIN for a second factor; the specs sign in with passwords unless they test it.
    MFA_REQUIRED_ROLES: 'none',
    ...env,
  };
  const name = templateName(settings);
  settings.FILE_ENCRYPTION_KEY ??=
    name === null ? randomBytes(32).toString('base64') : inject('runFileKey');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-e2e-'));
  if (name !== null) {
    fs.cpSync(await seededTemplate(name, settings), dataDir, { recursive: true });
  }
  const child = await spawnServer({
    env: { ...settings, DATA_DIR: dataDir },
    readyTimeoutMs: 90_000,
    build: 'dist',
  });
  assertCompiled(child);
  return {
    baseUrl: child.baseUrl,
    port: child.port,
    dataDir,
    output: child.output,
    stop: async () => {
      const code = await stopped(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * The server of a `describe`'s specs: started with `env` before them (a first
 * start of its kind seeds too, up to 90 s each) and stopped after them. Its
 * fields are read at each use, so the handle can be taken when the suite is
 * declared.
 */
export function useServer(env: Record<string, string>): RunningServer {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer(env);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });
  const started = (): RunningServer => {
    if (!server) throw new Error('O servidor ainda não foi iniciado (useServer).');
    return server;
  };
  return {
    get baseUrl() {
      return started().baseUrl;
    },
    get port() {
      return started().port;
    },
    get dataDir() {
      return started().dataDir;
    },
    output: () => started().output(),
    stop: () => started().stop(),
  };
}
