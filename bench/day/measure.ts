/**
 * What `bench:day` measures around a run: the CPU time of the server process
 * (all its threads, PGlite's worker included) and, on PostgreSQL, of the
 * database's backends serving it (from /proc), and which statements the
 * database is running (pg_stat_activity sampled every 20 ms: the average
 * number of each statement running at any moment is its share of database
 * time). Plus the per-class summary of the load client's answers.
 */
import pg from 'pg';
import { cpuMs } from '../../apps/server/test/spawn-server';

export type DatabaseProbe = {
  /** Starts sampling; `stop` answers the CPU of the backends and the top statements. */
  start: () => void;
  stop: () => Promise<{
    cpuMs: number;
    /** Server connections opened during the run (each one a new backend to start and warm). */
    connectionsOpened: number;
    statements: Array<{ query: string; running: number }>;
    /** By pg_stat_statements, when the server loads it: the statements that took most time. */
    statementTimes?: StatementTime[];
    /** By pg_stat_statements: every statement of the run (calls and time), for the per-request figures. */
    statementTotals?: StatementTime;
  }>;
  close: () => Promise<void>;
};

/**
 * A probe of one PostgreSQL database: its backends' CPU and its running
 * statements. The server's connections come and go (a pool closes idle
 * ones), so every 100 ms the probe lists them and reads each one's CPU: a
 * backend counts from its CPU at the start (or from zero when it was born
 * during the run) to the last reading taken of it (a backend that exits
 * keeps what it spent until then).
 */
export type StatementTime = { query: string; calls: number; execMs: number; planMs: number };

/**
 * Whether the server keeps pg_stat_statements (in `shared_preload_libraries`;
 * `track_planning` adds the planning time): the extension is created in the
 * measured database when it can be.
 */
async function statementStatistics(client: pg.Client): Promise<boolean> {
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query('select 1 from pg_stat_statements limit 1');
    return true;
  } catch {
    return false;
  }
}

export async function postgresProbe(url: string): Promise<DatabaseProbe> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const withStatistics = await statementStatistics(client);
  const name = new URL(url).pathname.slice(1);
  let timers: NodeJS.Timeout[] = [];
  let samples = 0;
  const counts = new Map<string, number>();
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let running = false;
  let opened = 0;
  // The server's connections only: an autovacuum worker busy with the seeded
  // table would charge one variant for work the load did not ask.
  const backends = async () =>
    (
      await client.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()
           and backend_type = 'client backend'`,
        [name],
      )
    ).rows.map((row) => row.pid);
  const readCpu = async (born: boolean) => {
    for (const pid of await backends()) {
      const now = cpuMs(pid);
      if (now === 0) continue;
      if (!first.has(pid)) {
        first.set(pid, born ? 0 : now);
        if (born) opened += 1;
      }
      last.set(pid, now);
    }
  };
  let sampling = false;
  const sample = async () => {
    if (sampling) return;
    sampling = true;
    try {
      const { rows } = await client.query<{ query: string }>(
        `select query from pg_stat_activity
         where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
        [name],
      );
      samples += 1;
      for (const row of rows) {
        const key = row.query.replace(/\s+/g, ' ').trim().slice(0, 140);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      if (samples % 5 === 0) await readCpu(true);
    } finally {
      sampling = false;
    }
  };
  return {
    start: () => {
      samples = 0;
      opened = 0;
      counts.clear();
      first.clear();
      last.clear();
      running = true;
      void (withStatistics ? client.query('select pg_stat_statements_reset()') : Promise.resolve())
        .then(() => readCpu(false))
        .then(() => {
          if (running) timers = [setInterval(() => void sample(), 20)];
        });
    },
    stop: async () => {
      running = false;
      for (const timer of timers) clearInterval(timer);
      while (sampling) await new Promise((resolve) => setTimeout(resolve, 5));
      await readCpu(true);
      let total = 0;
      for (const [pid, end] of last) total += end - (first.get(pid) ?? 0);
      const statements = [...counts.entries()]
        .map(([query, count]) => ({ query, running: count / Math.max(1, samples) }))
        .sort((a, b) => b.running - a.running)
        .slice(0, 5);
      const times = withStatistics ? await statementTimesOf(client, name) : undefined;
      return {
        cpuMs: total,
        connectionsOpened: opened,
        statements,
        statementTimes: times?.top,
        statementTotals: times?.total,
      };
    },
    close: () => client.end(),
  };
}

/**
 * The statements of the run that took most time (execution and planning) and
 * the sum of all of them, the probe's own left out.
 */
async function statementTimesOf(
  client: pg.Client,
  database: string,
): Promise<{ top: StatementTime[]; total: StatementTime }> {
  const { rows } = await client.query<{
    query: string;
    calls: string;
    exec: number;
    plan: number;
  }>(
    `select query, calls, total_exec_time as exec, total_plan_time as plan
       from pg_stat_statements
      where dbid = (select oid from pg_database where datname = $1)
        and query not like '%pg_stat_%'
      order by total_exec_time + total_plan_time desc`,
    [database],
  );
  const all = rows.map((row) => ({
    query: row.query.replace(/\s+/g, ' ').trim().slice(0, 110),
    calls: Number(row.calls),
    execMs: row.exec,
    planMs: row.plan,
  }));
  const total = all.reduce(
    (sum, row) => ({
      ...sum,
      calls: sum.calls + row.calls,
      execMs: sum.execMs + row.execMs,
      planMs: sum.planMs + row.planMs,
    }),
    { query: 'todas', calls: 0, execMs: 0, planMs: 0 },
  );
  return { top: all.slice(0, 8), total };
}

export type ClassResult = { latencies: number[]; codes: Record<string, number> };

export type ClientResult = {
  seconds: number;
  classes: Record<string, ClassResult>;
  deliveries: number[];
  changesSent: number;
  streamsOpen: number;
  streamErrors: number;
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

export type ClassSummary = {
  name: string;
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers other than 2xx, by status ("timeout" and "erro" for no answer). */
  errors: string;
  serverErrors: number;
};

export function summarize(result: ClientResult): ClassSummary[] {
  return Object.entries(result.classes)
    .map(([name, entry]) => {
      const sorted = [...entry.latencies].sort((a, b) => a - b);
      const bad = Object.entries(entry.codes).filter(([code]) => !code.startsWith('2'));
      return {
        name,
        requests: sorted.length,
        perSecond: sorted.length / result.seconds,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        errors: bad.map(([code, count]) => `${code}×${count}`).join(' ') || '-',
        serverErrors: bad
          .filter(([code]) => code.startsWith('5') || code === 'timeout' || code === 'erro')
          .reduce((sum, [, count]) => sum + count, 0),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '-');
