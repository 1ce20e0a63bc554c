/**
 * The server's start, from its TypeScript sources through the tsx loader
 * (`node --import tsx apps/server/src/main.ts`, what `npm start` ran before)
 * against the compiled build (`node apps/server/dist/main.js`, what it runs
 * now), side by side in one run, in turns (the order alternates each round):
 *
 * - start time: from spawn to the first `200` of `/health/ready`, on a fresh
 *   data folder (migrations and the first administrator) and again on the same
 *   folder (an existing database: what a restart costs);
 * - resident memory after start: VmRSS of the server process two seconds after
 *   it is ready (worker threads included: they live in the process), and of
 *   the process with its children (tsx's transform runs in an esbuild child).
 *
 * A production environment on the embedded database (PGlite), as
 * `NODE_ENV=production npm start` would run it, with logs off. The build is
 * made first when it is missing or older than the sources.
 *
 *   npm run bench:compiled-start -w bench [-- --runs 3]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, serverBuildState } from '../apps/server/build/server-build.mjs';
import { argument, productionEnv, spawnProductServer } from './bench-support';

const repoRoot = path.resolve(import.meta.dirname, '..');
const RUNS = argument('runs', 3);
const SETTLE_MS = 2_000;
const POLL_MS = 25;

type Mode = 'tsx' | 'dist';

type Start = { readyMs: number; rssMiB: number; treeRssMiB: number };
type Sample = { mode: Mode; round: number; fresh: Start; existing: Start };

/** VmRSS of a process in KiB (0 once it is gone). */
function rssKiB(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The process and every descendant (from /proc/<pid>/stat's parent field). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index += 1) {
    for (const [pid, ppid] of parents) if (ppid === tree[index]) tree.push(pid);
  }
  return tree;
}

/** One start of `mode` on `dataDir`: until ready, then the settle time, then stopped. */
async function startOnce(mode: Mode, dataDir: string, env: NodeJS.ProcessEnv): Promise<Start> {
  const server = await spawnProductServer({
    root: repoRoot,
    compiled: mode === 'dist',
    env: { ...env, DATA_DIR: dataDir },
    pollMs: POLL_MS,
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const rss = rssKiB(server.pid);
    const treeRss = processTree(server.pid).reduce((sum, each) => sum + rssKiB(each), 0);
    return { readyMs: server.readyMs, rssMiB: rss / 1024, treeRssMiB: treeRss / 1024 };
  } finally {
    await server.stop();
  }
}

async function sample(mode: Mode, round: number): Promise<Sample> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `exame-bench-start-${mode}-`));
  // The same key for both starts: the second opens what the first sealed.
  const env = { ...productionEnv(), ADMIN_FEDERATIVE_UNIT: 'DF' };
  try {
    const fresh = await startOnce(mode, dataDir, env);
    const existing = await startOnce(mode, dataDir, env);
    return { mode, round, fresh, existing };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

if (serverBuildState() !== 'current') await buildServer();

const samples: Sample[] = [];
for (let round = 1; round <= RUNS; round += 1) {
  const order: Mode[] = round % 2 ? ['tsx', 'dist'] : ['dist', 'tsx'];
  for (const mode of order) {
    const result = await sample(mode, round);
    samples.push(result);
    console.log(
      `rodada ${round} ${mode.padEnd(4)}: pronto em ${Math.round(result.fresh.readyMs)} ms ` +
        `(banco novo) e ${Math.round(result.existing.readyMs)} ms (existente); ` +
        `RSS ${result.fresh.rssMiB.toFixed(0)} / ${result.existing.rssMiB.toFixed(0)} MiB`,
    );
  }
}

type Metric = { label: string; unit: string; pick: (sample: Sample) => number };
const METRICS: Metric[] = [
  { label: 'pronto, banco novo', unit: 'ms', pick: (each) => each.fresh.readyMs },
  { label: 'pronto, banco existente', unit: 'ms', pick: (each) => each.existing.readyMs },
  { label: 'RSS do processo, banco novo', unit: 'MiB', pick: (each) => each.fresh.rssMiB },
  { label: 'RSS do processo, banco existente', unit: 'MiB', pick: (each) => each.existing.rssMiB },
  {
    label: 'RSS com filhos, banco existente',
    unit: 'MiB',
    pick: (each) => each.existing.treeRssMiB,
  },
];
const medianOf = (mode: Mode, metric: Metric) =>
  median(samples.filter((each) => each.mode === mode).map(metric.pick));

const table: Record<string, Record<string, string>> = {};
const summary: Record<string, { tsx: number; dist: number; ratio: number }> = {};
for (const metric of METRICS) {
  const tsx = medianOf('tsx', metric);
  const dist = medianOf('dist', metric);
  const ratio = Number((dist / tsx).toFixed(2));
  const digits = metric.unit === 'ms' ? 0 : 1;
  table[`${metric.label} (${metric.unit})`] = {
    'tsx (fontes)': tsx.toFixed(digits),
    'dist (compilado)': dist.toFixed(digits),
    'dist / tsx': ratio.toFixed(2),
  };
  summary[metric.label] = { tsx, dist, ratio };
}
console.log(`\nMedianas de ${RUNS} rodadas (${os.availableParallelism()} núcleos):`);
console.table(table);
console.log(JSON.stringify({ runs: RUNS, summary, samples }));
