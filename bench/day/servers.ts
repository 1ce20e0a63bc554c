/**
 * The servers `bench:day` compares: the product's code as it is (this
 * checkout) and as it was (a git worktree of an earlier commit, under
 * bench/.baseline-<rev>, so that its imports resolve to this checkout's
 * node_modules), each a real server process (`main.ts` under the tsx loader,
 * or `dist/main.js` when asked), each on a database of its own with the same
 * data: PGlite in a data folder, or a PostgreSQL database created and dropped
 * here.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { spawnProductServer } from '../bench-support';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** A worktree of `rev` (created once, kept for the next runs). */
export function baselineTree(rev: string): string {
  const folder = path.join(REPO_ROOT, 'bench', `.baseline-${rev}`);
  if (!fs.existsSync(path.join(folder, 'apps/server/src/main.ts'))) {
    execFileSync('git', ['worktree', 'add', '--force', '--detach', folder, rev], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
    });
  }
  return folder;
}

export type Variant = { name: string; root: string };

export type DatabasePlace =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'postgres'; url: string; dataDir: string; drop: () => Promise<void> };

/** A database of its own for one variant: a PGlite folder, or a new PostgreSQL database. */
export async function databaseFor(
  variant: string,
  folder: string,
  postgresUrl: string | undefined,
): Promise<DatabasePlace> {
  // The data folder: PGlite's database, or only the files beside PostgreSQL.
  const dataDir = path.join(folder, variant);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  if (!postgresUrl) return { kind: 'pglite', dataDir };
  const name = `bench_day_${variant.replace(/\W/g, '_')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    dataDir,
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: postgresUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export type RunningServer = { base: string; pid: number; stop: () => Promise<void> };

/** Starts the variant's server on `place` with `env`; resolves once `/health/ready` answers. */
export function startServer(
  variant: Variant,
  place: DatabasePlace,
  env: NodeJS.ProcessEnv,
  options: { compiled?: boolean } = {},
): Promise<RunningServer> {
  return spawnProductServer({
    root: variant.root,
    compiled: options.compiled,
    label: variant.name,
    env: {
      ...env,
      DATA_DIR: place.dataDir,
      ...(place.kind === 'postgres' ? { DATABASE_URL: place.url } : {}),
    },
  });
}
