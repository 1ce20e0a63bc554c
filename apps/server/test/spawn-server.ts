/**
 * The real server process on a free port, waited for until `/health/ready`
 * answers: the one start helper of the fault tests and of the end-to-end
 * specs. From its TypeScript sources through tsx (the fault tests), or
 * compiled, as `npm start` runs it (`build: 'dist'`, the end-to-end specs:
 * `node apps/server/dist/main.js`, which `npm run build` makes). It reads
 * nothing of the process's environment but PATH and HOME; the caller states
 * every variable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { SERVER_DIST_ENTRY } from '../build/server-build.mjs';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

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

export type SpawnedServer = {
  baseUrl: string;
  port: number;
  pid: number;
  /** The command line it was started with (node and its arguments). */
  command: readonly string[];
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether the process has ended. */
  ended: () => boolean;
  kill: (signal: NodeJS.Signals) => void;
};

/** The arguments of node that start the server from its sources or from its build. */
export function serverArgs(build: 'source' | 'dist'): string[] {
  if (build === 'source')
    return ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')];
  if (!fs.existsSync(SERVER_DIST_ENTRY)) {
    throw new Error(
      `O servidor compilado não existe (${path.relative(repoRoot, SERVER_DIST_ENTRY)}): rode \`npm run build\` antes.`,
    );
  }
  return [SERVER_DIST_ENTRY];
}

/**
 * Starts the server with `env` (plus PATH, HOME, HOST and PORT): from
 * `apps/server/src/main.ts` through tsx, or with `build: 'dist'` from
 * `apps/server/dist/main.js` with plain node (throws if it was not built).
 */
export async function spawnServer(options: {
  env: Record<string, string>;
  readyTimeoutMs: number;
  build?: 'source' | 'dist';
}): Promise<SpawnedServer> {
  const args = serverArgs(options.build ?? 'source');
  // A spec that must know the address before the start (a provider's return address) names the port.
  const port = options.env.PORT ? Number(options.env.PORT) : await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + options.readyTimeoutMs;
  for (;;) {
    if (ended()) throw new Error(`O servidor saiu ao iniciar:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/health/ready`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `O servidor não ficou pronto em ${Math.round(options.readyTimeoutMs / 1000)} s:\n${output}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    port,
    pid: child.pid ?? 0,
    command: [process.execPath, ...args],
    output: () => output,
    exited,
    ended,
    kill: (signal) => {
      if (!ended()) child.kill(signal);
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time of a process (all its threads, PGlite's worker included), in ms; 0 when it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * Waits until the process is at rest: under a tenth of a core over
 * `windowMs` (or `timeoutMs` passed). Answers the seconds waited.
 */
export async function waitAtRest(
  pid: number,
  options: { windowMs: number; timeoutMs: number },
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const before = cpuMs(pid);
    await new Promise((resolve) => setTimeout(resolve, options.windowMs));
    if (cpuMs(pid) - before < options.windowMs / 10) break;
    if (Date.now() - started > options.timeoutMs) break;
  }
  return Math.round((Date.now() - started) / 1000);
}
