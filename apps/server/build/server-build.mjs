// @ts-check
/**
 * The server's production build: `apps/server/dist/main.js`, plain ESM
 * JavaScript that `node` runs without a TypeScript loader (`npm start`, the
 * end-to-end suite). `npm run build` (root) runs it after the web's.
 *
 * - esbuild bundles the server's own sources and `@exame/shared` (a
 *   workspace package whose entry is TypeScript) into one file; every npm
 *   package stays external and is loaded from node_modules as it is (sharp,
 *   @node-rs/argon2, PGlite's WebAssembly, tfjs...).
 * - What is read by path at run time is copied into dist/ with its layout
 *   under src/ (see src/config/runtime-paths.ts): the migrations and the
 *   plain-JavaScript workers (`db/pglite-worker.mjs`, `biometrics/*.mjs`,
 *   which the bundle imports from there too, so the face engine is one copy).
 *
 * Plain JavaScript so that `scripts/start.mjs` can ask, without tsx, whether
 * the build is current (`serverBuildState`). esbuild (a devDependency) is
 * loaded only to build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const serverRoot = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(serverRoot, '../..');
const srcDir = path.join(serverRoot, 'src');
export const SERVER_DIST_DIR = path.join(serverRoot, 'dist');
/** What `node` runs in production. */
export const SERVER_DIST_ENTRY = path.join(SERVER_DIST_DIR, 'main.js');

/** What the build is made of: a change to any of them makes it stale. */
const SOURCES = [
  srcDir,
  path.join(repoRoot, 'packages/shared/src'),
  path.join(repoRoot, 'packages/shared/package.json'),
  path.join(serverRoot, 'package.json'),
  import.meta.filename,
];

/** @param {string} target */
function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * `missing` (never built), `stale` (a source changed after the build) or
 * `current`. The entry is written last, so its time is the build's.
 * @returns {'missing' | 'stale' | 'current'}
 */
export function serverBuildState() {
  if (!fs.existsSync(SERVER_DIST_ENTRY)) return 'missing';
  const built = fs.statSync(SERVER_DIST_ENTRY).mtimeMs;
  return SOURCES.some((source) => newestMtime(source) > built) ? 'stale' : 'current';
}

/** The files under src/ that are not bundled but copied: plain-JavaScript modules and the migrations. */
function copiedFiles() {
  /** @type {string[]} */
  const files = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.mjs')) files.push(file);
    }
  };
  walk(srcDir);
  return files;
}

/** Is `file` inside `dir`? */
function isInside(/** @type {string} */ file, /** @type {string} */ dir) {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** @type {import('esbuild').Plugin} */
const externals = {
  name: 'exame-externals',
  setup(build) {
    // npm packages stay in node_modules; the workspace's own @exame/shared is bundled.
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === '@exame/shared' || args.path.startsWith('@exame/shared/')) return undefined;
      return { path: args.path, external: true };
    });
    // The plain-JavaScript modules of src/ are copied, not bundled: the bundle
    // (dist/main.js) imports them at their place under dist/.
    build.onResolve({ filter: /\.mjs$/ }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      if (!isInside(file, srcDir)) return undefined;
      const relative = path.relative(srcDir, file).split(path.sep).join('/');
      return { path: `./${relative}`, external: true };
    });
  },
};

/** Builds apps/server/dist from scratch; returns the entry's path. */
export async function buildServer() {
  const started = performance.now();
  const { build } = await import('esbuild');
  fs.rmSync(SERVER_DIST_DIR, { recursive: true, force: true });
  fs.mkdirSync(SERVER_DIST_DIR, { recursive: true });
  for (const file of copiedFiles()) {
    const target = path.join(SERVER_DIST_DIR, path.relative(srcDir, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
  }
  // The migrations as drizzle's migrator reads them (SQL and the journal; not drizzle-kit's snapshots).
  fs.cpSync(path.join(srcDir, 'db/migrations'), path.join(SERVER_DIST_DIR, 'db/migrations'), {
    recursive: true,
    filter: (source) => !source.endsWith('_snapshot.json'),
  });
  // Last, so that the entry's time is the build's (serverBuildState).
  await build({
    entryPoints: { main: path.join(srcDir, 'main.ts') },
    outdir: SERVER_DIST_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    tsconfig: path.join(serverRoot, 'tsconfig.json'),
    // Error and class names as in the sources (bundling may rename clashing names).
    keepNames: true,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [externals],
  });
  const size = fs.statSync(SERVER_DIST_ENTRY).size;
  console.log(
    `Servidor compilado em ${path.relative(repoRoot, SERVER_DIST_ENTRY)} ` +
      `(${Math.round(size / 1024)} KiB, ${Math.round(performance.now() - started)} ms).`,
  );
  return SERVER_DIST_ENTRY;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildServer();
}
