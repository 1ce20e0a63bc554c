/**
 * Starts the real server (the same entry point as `npm start`) on a free
 * port with its own data folder, and waits until it is ready.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer } from '../../apps/server/test/spawn-server';

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

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('A aplicação web não foi gerada: rode `npm run build` antes dos testes e2e.');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-e2e-'));
  const child = await spawnServer({
    env: {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // What production must state: clients connect directly, a key from outside
      // DATA_DIR, and mail read from the outbox unless a spec gives an SMTP server.
      TRUST_PROXY: 'none',
      FILE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      MAIL_OUTBOX_ONLY: 'true',
      // Production seeds the demonstration only when asked: the specs use it unless they say not.
      SEED_DEMO: 'true',
      ...env,
    },
    readyTimeoutMs: 90_000,
  });
  return {
    baseUrl: child.baseUrl,
    port: child.port,
    dataDir,
    output: child.output,
    stop: async () => {
      if (!child.ended()) {
        child.kill('SIGTERM');
        await Promise.race([child.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        child.kill('SIGKILL');
      }
      const code = child.ended() ? (await child.exited).code : null;
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
