/**
 * SQL of the exam report. The counters are read from the maintained
 * per-day counter rows (`exam_day_counts`, kept by the triggers of migration
 * 0016 in the transaction of every change of an exam): a report reads
 * O(posts x days x statuses) rows, never the exams. The exams behind a
 * counter still come from the exams table, by the same rule table
 * (`counterSql`), grouped by the local id computed by the same rule as
 * `localIdOf` in packages/shared (report-locals.repository.ts).
 */
import {
  UNKNOWN_LOCAL_NAME,
  METADATA_COUNTERS,
  REPORT_COUNTERS,
  type ExamResult,
  type ExamStatus,
  type MetadataCounts,
  type PageQuery,
  type ReportCounter,
  type ReportCounters,
  type ReportScope,
  TOTAL_COUNT_CAP,
  cappedTotal,
  dayInZone,
} from '@exame/shared';
import { sql, type SQL } from 'drizzle-orm';
import { literal, preparedRawQueries, type Bind, type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import { localIdSql, localNames, namesCte, postIdentifierSql } from './report-locals.repository';

export type { ReportScope };

/** What each exam weighs: 1 and its metadata for a row, the sums for a group of rows. */
type Weights = { n: SQL; pendingAudit: SQL; absence: SQL; interrupted: SQL };

const ROW_WEIGHTS: Weights = {
  n: sql`1`,
  pendingAudit: sql`pending_audit`,
  absence: sql`absence`,
  interrupted: sql`interrupted`,
};

/**
 * Spec 4 per counter: which exams it concerns and what each adds. The
 * aggregation, the exams behind a counter and their count all come from
 * this one table, so the screen, the list and the export agree.
 */
function counterSql(w: Weights): Readonly<Record<ReportCounter, { where: SQL; value: SQL }>> {
  return {
    total: { where: sql`true`, value: w.n },
    scheduled: { where: sql`status = 'scheduled'`, value: w.n },
    started: { where: sql`status = 'started'`, value: w.n },
    finished: { where: sql`status = 'done'`, value: w.n },
    approved: { where: sql`status = 'done' and result = 'approved'`, value: w.n },
    reproved: { where: sql`status = 'done' and result = 'reproved'`, value: w.n },
    disqualified: { where: sql`status = 'done' and result = 'disqualified'`, value: w.n },
    pendingAudit: {
      where: sql`((status = 'done' and result = 'in_analysis') or ${w.pendingAudit} <> 0)`,
      value: sql`((case when status = 'done' and result = 'in_analysis' then ${w.n} else 0 end) + ${w.pendingAudit})`,
    },
    absence: {
      where: sql`(status = 'absence' or ${w.absence} <> 0)`,
      value: sql`((case when status = 'absence' then ${w.n} else 0 end) + ${w.absence})`,
    },
    interrupted: { where: sql`${w.interrupted} <> 0`, value: w.interrupted },
  };
}

const COUNTER_SQL = counterSql(ROW_WEIGHTS);

const SNAKE: Readonly<Record<ReportCounter, string>> = {
  total: 'total',
  scheduled: 'scheduled',
  started: 'started',
  finished: 'finished',
  approved: 'approved',
  reproved: 'reproved',
  pendingAudit: 'pending_audit_count',
  absence: 'absence_count',
  interrupted: 'interrupted_count',
  disqualified: 'disqualified',
};

/** The unit's exams of the period that the report counts (cancelled left out, spec 5). */
function periodWhere(scope: ReportScope): SQL {
  return sql`e.federative_unit = ${scope.unit}
    and e.scheduling_date >= ${scope.start.toISOString()}::timestamptz
    and e.scheduling_date < ${scope.endExclusive.toISOString()}::timestamptz
    and e.status <> 'cancelled'`;
}

/**
 * The counter rows of the period: the scope's instants are São Paulo day
 * starts (resolvePeriod), so the days are [day of start, day of endExclusive).
 * A null local or result is stored as '' and counted as before.
 */
function countsWhere(scope: ReportScope, bind: Bind = literal): SQL {
  return sql`c.federative_unit = ${bind('unit', scope.unit)}
    and c.day >= ${bind('startDay', dayInZone(scope.start))}::date
    and c.day < ${bind('endDay', dayInZone(scope.endExclusive))}::date
    and c.status <> 'cancelled'`;
}

type Numeric = number | string | bigint | null;

export type LocalCountsRow = {
  id: string;
  identifier: string | null;
  name: string;
  report: ReportCounters;
  fromMetadata: MetadataCounts;
};

/** The part of each metadata counter that came from the exams' metadata, per local. */
const METADATA_SNAKE: Readonly<Record<(typeof METADATA_COUNTERS)[number], string>> = {
  pendingAudit: 'metadata_pending_audit',
  absence: 'metadata_absence',
  interrupted: 'metadata_interrupted',
};

const countQueries = preparedRawQueries();

/**
 * One row per local id with exams in the period; `localId` narrows it to one.
 * The exams are first grouped by their raw scheduling local, status and
 * result (a few dozen groups), so the local-id rule and the counter rules run
 * per group, not per exam. The statement is built once per shape (CE's rule or
 * the others', one local or all) and then only executed with the values.
 */
export async function countByLocal(
  db: Executor,
  scope: ReportScope,
  localId?: string,
): Promise<LocalCountsRow[]> {
  const bind: Bind = (name) => sql.placeholder(name);
  const build = () => {
    const counters = counterSql({
      n: sql`g.n`,
      pendingAudit: sql`g.pending_audit`,
      absence: sql`g.absence`,
      interrupted: sql`g.interrupted`,
    });
    const sums = sql.join(
      REPORT_COUNTERS.map(
        (counter) =>
          sql`sum(case when ${counters[counter].where} then ${counters[counter].value} else 0 end)::bigint as ${sql.identifier(SNAKE[counter])}`,
      ),
      sql`, `,
    );
    return sql`with ${namesCte(scope, bind)},
    raw_groups as (
      select c.scheduling_local, c.status, c.result, sum(c.exams) as n,
             sum(c.pending_audit) as pending_audit, sum(c.absence) as absence,
             sum(c.interrupted) as interrupted
      from exam_day_counts c
      where ${countsWhere(scope, bind)}
      group by c.scheduling_local, c.status, c.result
    ),
    g as (
      select ${localIdSql(scope, sql`raw_groups.scheduling_local`, bind)} as local_id,
             ${postIdentifierSql(scope, sql`raw_groups.scheduling_local`, bind)} as post_identifier,
             raw_groups.*
      from raw_groups
      where raw_groups.n <> 0
    )
    select g.local_id, nm.description as name,
           coalesce(nm.identifier, min(g.post_identifier collate "C")) as identifier,
           sum(g.pending_audit)::bigint as ${sql.identifier(METADATA_SNAKE.pendingAudit)},
           sum(g.absence)::bigint as ${sql.identifier(METADATA_SNAKE.absence)},
           sum(g.interrupted)::bigint as ${sql.identifier(METADATA_SNAKE.interrupted)},
           ${sums}
    from g
    left join names nm on nm.local_id = g.local_id
    ${localId === undefined ? sql`` : sql`where g.local_id = ${bind('localId', localId)}`}
    group by g.local_id, nm.identifier, nm.description`;
  };
  const values = {
    unit: scope.unit,
    prefix: scope.prefix,
    startDay: dayInZone(scope.start),
    endDay: dayInZone(scope.endExclusive),
    localId,
  };
  const shape = `${scope.unit === 'CE' ? 'ce' : 'prefix'}|${localId === undefined ? 'all' : 'one'}`;
  const rows = await countQueries<
    Record<string, Numeric> & { local_id: string; name: string | null; identifier: string | null }
  >(db, shape, build, values);
  return rows.map((row) => ({
    id: row.local_id,
    identifier: row.identifier,
    name: row.name ?? UNKNOWN_LOCAL_NAME,
    report: Object.fromEntries(
      REPORT_COUNTERS.map((counter) => [counter, Number(row[SNAKE[counter]] ?? 0)]),
    ) as ReportCounters,
    fromMetadata: Object.fromEntries(
      METADATA_COUNTERS.map((counter) => [counter, Number(row[METADATA_SNAKE[counter]] ?? 0)]),
    ) as MetadataCounts,
  }));
}

export type CounterExamRow = {
  id: string;
  schedulingId: string;
  candidateName: string;
  candidateCpf: string;
  schedulingDate: Date;
  status: ExamStatus;
  result: ExamResult | null;
  schedulingLocal: string | null;
  localId: string;
  localName: string;
  room: string | null;
  station: string | null;
  pendingAudit: number;
  absence: number;
  interrupted: number;
  contribution: number;
};

/**
 * Exams of the period with their local id and name; `join` adds rows of
 * another table to each exam, `where` narrows them further.
 */
function examsWithLocal(
  scope: ReportScope,
  options: { join?: SQL; where?: SQL; localId?: string },
): SQL {
  return sql`from exams e
    ${options.join ?? sql``}
    cross join lateral (select ${localIdSql(scope, sql`e.scheduling_local`)} as local_id) x
    left join names n on n.local_id = x.local_id
    where ${periodWhere(scope)}
      ${options.where === undefined ? sql`` : sql`and ${options.where}`}
      ${options.localId === undefined ? sql`` : sql`and x.local_id = ${options.localId}`}`;
}

/** One page of `select … from … order by …`, and the totals over every page, side by side. */
function selectPage<Row, Totals>(
  db: Executor,
  scope: ReportScope,
  query: { select: SQL; from: SQL; orderBy: SQL; totals: SQL },
  page: PageQuery,
): Promise<[Row[], Totals[]]> {
  return Promise.all([
    selectRows<Row>(
      db,
      sql`with ${namesCte(scope)} select ${query.select} ${query.from}
      order by ${query.orderBy}
      limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
    ),
    selectRows<Totals>(db, sql`with ${namesCte(scope)} select ${query.totals} ${query.from}`),
  ]);
}

/** The exams behind one counter, oldest first, with what each adds to it. */
export async function listCounterExams(
  db: Executor,
  scope: ReportScope,
  options: { counter: ReportCounter; localId?: string } & PageQuery,
): Promise<{ items: CounterExamRow[]; total: number; counterValue: number }> {
  const counter = COUNTER_SQL[options.counter];
  const [rows, totals] = await selectPage<
    {
      id: string;
      scheduling_id: string;
      candidate_name: string;
      candidate_cpf: string;
      scheduling_date: Date | string;
      status: ExamStatus;
      result: ExamResult | null;
      scheduling_local: string | null;
      local_id: string;
      local_name: string | null;
      room: string | null;
      station: string | null;
      pending_audit: number;
      absence: number;
      interrupted: number;
      contribution: Numeric;
    },
    { total: Numeric; counter_value: Numeric }
  >(
    db,
    scope,
    {
      select: sql`e.id, e.scheduling_id, e.candidate_name, e.candidate_cpf, e.scheduling_date,
             e.status, e.result, e.scheduling_local, x.local_id, n.description as local_name,
             e.room, e.station, e.pending_audit, e.absence, e.interrupted,
             ${counter.value} as contribution`,
      from: examsWithLocal(scope, { where: counter.where, localId: options.localId }),
      orderBy: sql`e.scheduling_date, e.id`,
      totals: sql`count(*) as total, coalesce(sum(${counter.value}), 0) as counter_value`,
    },
    options,
  );
  return {
    items: rows.map((row) => ({
      id: row.id,
      schedulingId: row.scheduling_id,
      candidateName: row.candidate_name,
      candidateCpf: row.candidate_cpf,
      schedulingDate: new Date(row.scheduling_date),
      status: row.status,
      result: row.result,
      schedulingLocal: row.scheduling_local,
      localId: row.local_id,
      localName: row.local_name ?? UNKNOWN_LOCAL_NAME,
      room: row.room,
      station: row.station,
      pendingAudit: row.pending_audit,
      absence: row.absence,
      interrupted: row.interrupted,
      contribution: Number(row.contribution),
    })),
    total: Number(totals[0]?.total ?? 0),
    counterValue: Number(totals[0]?.counter_value ?? 0),
  };
}

export type OccurrenceRow = {
  id: string;
  examId: string;
  schedulingId: string;
  candidateName: string;
  localId: string;
  localName: string;
  type: string;
  description: string;
  occurredAt: Date;
};

/**
 * Occurrences of the exams the report counts in the period: newest exam
 * first, and the newest occurrence first inside an exam. The panel reads
 * the occurrences' own copy of their exam's unit, date, local and whether it
 * counts (migration 0028) through `occurrences_panel_idx`, so a page costs
 * its rows whatever the period holds; a post narrows it to the raw locals
 * of that post in the period's counter rows (a handful), through
 * `occurrences_panel_local_idx`. The total is counted up to the cap.
 */
export async function listOccurrences(
  db: Executor,
  scope: ReportScope,
  options: { localId?: string } & PageQuery,
): Promise<{ items: OccurrenceRow[]; total: number; totalCapped?: boolean }> {
  const where = sql`o.federative_unit = ${scope.unit} and o.counted
    and o.scheduling_date >= ${scope.start.toISOString()}::timestamptz
    and o.scheduling_date < ${scope.endExclusive.toISOString()}::timestamptz
    ${
      options.localId === undefined
        ? sql``
        : sql`and o.scheduling_local in (
            select c.scheduling_local from exam_day_counts c
            where ${countsWhere(scope)}
              and ${localIdSql(scope, sql`c.scheduling_local`)} = ${options.localId}
            group by c.scheduling_local)`
    }`;
  const [rows, totals] = await Promise.all([
    selectRows<{
      id: string;
      exam_id: string;
      scheduling_id: string;
      candidate_name: string;
      local_id: string;
      type: string;
      description: string;
      occurred_at: Date | string;
    }>(
      db,
      sql`select o.id, o.exam_id, e.scheduling_id, e.candidate_name,
          ${localIdSql(scope, sql`o.scheduling_local`)} as local_id,
          o.type, o.description, o.occurred_at
        from occurrences o join exams e on e.id = o.exam_id
        where ${where}
        order by o.scheduling_date desc, o.occurred_at desc, o.id
        limit ${options.pageSize} offset ${(options.page - 1) * options.pageSize}`,
    ),
    selectRows<{ total: Numeric }>(
      db,
      sql`select count(*) as total from (
        select 1 from occurrences o where ${where} limit ${TOTAL_COUNT_CAP + 1}) capped`,
    ),
  ]);
  const names = await localNames(db, scope, [...new Set(rows.map((row) => row.local_id))]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      examId: row.exam_id,
      schedulingId: row.scheduling_id,
      candidateName: row.candidate_name,
      localId: row.local_id,
      localName: names.get(row.local_id) ?? UNKNOWN_LOCAL_NAME,
      type: row.type,
      description: row.description,
      occurredAt: new Date(row.occurred_at),
    })),
    ...cappedTotal(Number(totals[0]?.total ?? 0)),
  };
}
