/**
 * Query plans of what a repository function really sends: the statements it
 * runs are captured with their values while it runs, then each SELECT is
 * explained (`EXPLAIN (FORMAT JSON)`) on the same database. The list tests
 * assert on the plans' nodes (no sequential scan of a big table), on both
 * engines, after the tables hold enough rows for the planner to choose as it
 * would in production and their statistics are fresh (`analyze`).
 */
import { createTestDatabase, type TestDatabase } from './helper';
import type { Executor } from '../src/db/client';

export type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
};

export type ExplainedStatement = { query: string; nodes: PlanNode[] };

export type PlanDatabase = TestDatabase & {
  /** Runs `work` and explains every SELECT it sent, in order. */
  explain: (work: (db: Executor) => Promise<unknown>) => Promise<ExplainedStatement[]>;
};

export async function createPlanDatabase(): Promise<PlanDatabase> {
  let captured: Array<{ query: string; params: unknown[] }> | null = null;
  const database = await createTestDatabase({
    onQuery: (query, params) => captured?.push({ query, params }),
  });
  const explain = async (work: (db: Executor) => Promise<unknown>) => {
    const statements: Array<{ query: string; params: unknown[] }> = [];
    captured = statements;
    try {
      await work(database.db);
    } finally {
      captured = null;
    }
    const explained: ExplainedStatement[] = [];
    for (const statement of statements) {
      if (!/^\s*(select|with)\b/i.test(statement.query)) continue;
      const { rows } = await database.executeRaw(
        `explain (format json) ${statement.query}`,
        statement.params,
      );
      explained.push({ query: statement.query, nodes: flatten(planOf(rows[0])) });
    }
    return explained;
  };
  return { ...database, explain };
}

function planOf(row: unknown): PlanNode {
  const value = Object.values(row as Record<string, unknown>)[0];
  const parsed = (typeof value === 'string' ? JSON.parse(value) : value) as Array<{
    Plan: PlanNode;
  }>;
  const plan = parsed[0]?.Plan;
  if (!plan) throw new Error(`EXPLAIN sem plano: ${JSON.stringify(row)}`);
  return plan;
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}

/** The tables among `tables` that some statement reads with a sequential scan, as "table: query". */
export function sequentialScans(statements: ExplainedStatement[], tables: string[]): string[] {
  return statements.flatMap((statement) =>
    statement.nodes
      .filter(
        (node) => node['Node Type'] === 'Seq Scan' && tables.includes(node['Relation Name'] ?? ''),
      )
      .map((node) => `${node['Relation Name']}: ${statement.query}`),
  );
}

/** The indexes the statements read. */
export function indexesRead(statements: ExplainedStatement[]): string[] {
  return statements.flatMap((statement) =>
    statement.nodes.flatMap((node) => (node['Index Name'] ? [node['Index Name']] : [])),
  );
}
