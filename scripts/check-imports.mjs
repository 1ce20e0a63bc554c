#!/usr/bin/env node
/**
 * Import rules the linter cannot express, checked over every TypeScript file
 * of the workspaces (type-only imports included):
 *
 * 1. No import loops: the graph of imports between the project's own files
 *    has no cycle.
 * 2. Layers of the web app: `packages/shared` <- `apps/web/src/{lib,components}`
 *    <- `apps/web/src/features/<name>` <- `apps/web/src/app`. A feature never
 *    imports another feature nor the app; lib and components import no
 *    feature; the shared package imports nothing of the apps.
 * 3. SQL only in repositories (one module shape: routes -> service ->
 *    repository). In `apps/server/src`, a file that may build or run queries
 *    is one that imports `drizzle-orm` (the query builders, `sql`), the
 *    tables of `db/schema`, or `selectRows` of `db/client`. Only these may:
 *    `*.repository.ts` files; `db/client.ts` (opens the database) and
 *    `db/schema/**` (the tables); `db/seed/**` (seed scripts generate data,
 *    and say so at their top); and tests (`*.test.ts`, which read the
 *    database to check it). Routes, services, plugins, lib and the rest of
 *    `db/` run SQL through a repository. Modules without SQL (health) need
 *    none. Queries reached without any of those imports (the relational
 *    `db.query` API, which the project does not use) are not seen.
 *
 * Exits 1 and lists every break.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE_ROOTS = [
  'packages/shared/src',
  'packages/shared/test',
  'apps/server/src',
  'apps/server/test',
  'apps/web/src',
];
const WORKSPACE_ENTRIES = {
  '@exame/shared': 'packages/shared/src/index.ts',
  '@exame/shared/common-passwords': 'packages/shared/src/common-passwords.ts',
  '@exame/shared/exam-report-reference': 'packages/shared/src/exam-report.reference.ts',
};
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolve(from, spec) {
  if (spec in WORKSPACE_ENTRIES) return path.join(root, WORKSPACE_ENTRIES[spec]);
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    base.replace(/\.m?js$/, '.ts'),
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const files = SOURCE_ROOTS.flatMap((dir) => walk(path.join(root, dir), []));
const rel = (file) => path.relative(root, file).split(path.sep).join('/');
const problems = [];

// 3. SQL only in repositories (see the header).
const SERVER_SRC = 'apps/server/src/';
const SCHEMA_DIR = `${SERVER_SRC}db/schema/`;
const DB_CLIENT = `${SERVER_SRC}db/client.ts`;
function mayQuery(file) {
  const r = rel(file);
  return (
    r.endsWith('.repository.ts') ||
    r.endsWith('.test.ts') ||
    r === DB_CLIENT ||
    r.startsWith(SCHEMA_DIR) ||
    r.startsWith(`${SERVER_SRC}db/seed/`)
  );
}
/** What of the query toolkit an import brings in, or null. */
function queryImport(file, spec, clause) {
  if (spec === 'drizzle-orm' || spec.startsWith('drizzle-orm/')) return spec;
  const target = resolve(file, spec);
  if (!target) return null;
  const r = rel(target);
  if (r.startsWith(SCHEMA_DIR)) return r;
  if (r === DB_CLIENT && /\bselectRows\b/.test(clause)) return `selectRows de ${r}`;
  return null;
}

const graph = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  const checkQueries = rel(file).startsWith(SERVER_SRC) && !mayQuery(file);
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    const target = resolve(file, spec);
    if (target) targets.add(target);
    const query = checkQueries ? queryImport(file, spec, match[0]) : null;
    if (query) {
      problems.push(`SQL fora de um repositório: ${rel(file)} importa ${query}`);
    }
  }
  graph.set(file, [...targets]);
}

// 1. Cycles (Tarjan's strongly connected components).
let index = 0;
const stack = [];
const state = new Map();
function connect(node) {
  const entry = { index, low: index, onStack: true };
  index += 1;
  state.set(node, entry);
  stack.push(node);
  for (const next of graph.get(node) ?? []) {
    if (!graph.has(next)) continue;
    const seen = state.get(next);
    if (!seen) {
      connect(next);
      entry.low = Math.min(entry.low, state.get(next).low);
    } else if (seen.onStack) entry.low = Math.min(entry.low, seen.index);
  }
  if (entry.low === entry.index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      component.push(member);
    } while (member !== node);
    const selfLoop = (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) {
      problems.push(`laço de imports: ${component.map(rel).sort().join(' <-> ')}`);
    }
  }
}
for (const node of graph.keys()) if (!state.has(node)) connect(node);

// 2. Layers.
function layerOf(file) {
  const r = rel(file);
  if (r.startsWith('packages/shared/')) return { layer: 'shared' };
  if (r.startsWith('apps/server/')) return { layer: 'server' };
  const feature = /^apps\/web\/src\/features\/([^/]+)\//.exec(r);
  if (feature) return { layer: 'feature', name: feature[1] };
  // The entry composes the app; the test support renders it for the tests of any layer.
  if (r.startsWith('apps/web/src/app/') || r === 'apps/web/src/main.tsx') return { layer: 'app' };
  if (r.startsWith('apps/web/src/test/')) return { layer: 'test-support' };
  if (r.startsWith('apps/web/src/')) return { layer: 'web-base' };
  return { layer: 'other' };
}
for (const [file, targets] of graph) {
  const from = layerOf(file);
  const isTest = /\.test\.tsx?$/.test(file);
  for (const target of targets) {
    const to = layerOf(target);
    if (to.layer === 'test-support' && (isTest || from.layer === 'test-support')) continue;
    const broken =
      (from.layer === 'shared' && to.layer !== 'shared') ||
      (from.layer === 'server' && !['server', 'shared'].includes(to.layer)) ||
      (from.layer === 'web-base' &&
        ['feature', 'app', 'server', 'test-support'].includes(to.layer)) ||
      (from.layer === 'test-support' && to.layer === 'server') ||
      (from.layer === 'feature' &&
        (to.layer === 'app' ||
          to.layer === 'server' ||
          to.layer === 'test-support' ||
          (to.layer === 'feature' && to.name !== from.name)));
    if (broken) problems.push(`camada: ${rel(file)} importa ${rel(target)}`);
  }
}

if (problems.length > 0) {
  console.error(`Regras de import quebradas (${problems.length}):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `Imports: ${graph.size} arquivos, sem laços, camadas respeitadas, SQL só nos repositórios.`,
);
