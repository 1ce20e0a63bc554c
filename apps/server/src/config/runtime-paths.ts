/**
 * Where the files the server reads at run time are, the same whether it runs
 * from its TypeScript sources (tsx, vitest: this file is
 * `apps/server/src/config/runtime-paths.ts`) or compiled (`node
 * apps/server/dist/main.js`: this file is bundled into `dist/main.js`).
 *
 * The build (`apps/server/build/server-build.mjs`) copies into `dist/`, with
 * the layout they have under `src/`, what is read by path rather than
 * imported: the migrations (`db/migrations/`) and the plain-JavaScript
 * workers with the face engine they load (`db/pglite-worker.mjs`,
 * `biometrics/*.mjs`). So one relative path names a file in both modes.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The nearest folder above `start` (itself included) with a package.json: `apps/server`. */
function packageRootOf(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`package.json não encontrado acima de ${start}`);
  }
}

/** `apps/server`. */
export const SERVER_ROOT = packageRootOf(import.meta.dirname);

/** The folder of the code running now: `apps/server/src` or `apps/server/dist`. */
export const RUNTIME_DIR = path.join(
  SERVER_ROOT,
  path.relative(SERVER_ROOT, import.meta.dirname).split(path.sep)[0] ?? '',
);

/** The repository (the npm workspaces' root). */
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');

/** A run-time file by its path under `src/` (e.g. `db/migrations`), in the code running now. */
export function runtimePath(relative: string): string {
  return path.join(RUNTIME_DIR, relative);
}
