/**
 * The maintained counters of the report (`exam_day_counts`, see the schema
 * and migration 0016) against a full recount of the exams table: the check
 * lists every counter row that differs, the rebuild recomputes them all
 * (after a bulk load done with the triggers off, a restore or a change of
 * the rule). The recount groups exactly as the triggers do.
 */
import { PERIOD_TIME_ZONE } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';

const RECOUNT = sql`select federative_unit,
    (scheduling_date at time zone ${sql.raw(`'${PERIOD_TIME_ZONE}'`)})::date as day,
    coalesce(scheduling_local, '') as scheduling_local, status, coalesce(result, '') as result,
    count(*)::bigint as exams, sum(pending_audit)::bigint as pending_audit,
    sum(absence)::bigint as absence, sum(interrupted)::bigint as interrupted
  from exams
  group by 1, 2, 3, 4, 5`;

export type CounterValues = {
  exams: number;
  pendingAudit: number;
  absence: number;
  interrupted: number;
};

export type CounterDifference = {
  federativeUnit: string;
  day: string;
  schedulingLocal: string;
  status: string;
  result: string;
  kept: CounterValues;
  recounted: CounterValues;
};

type Numeric = number | string | bigint | null;

const values = (exams: Numeric, pending: Numeric, absence: Numeric, interrupted: Numeric) => ({
  exams: Number(exams ?? 0),
  pendingAudit: Number(pending ?? 0),
  absence: Number(absence ?? 0),
  interrupted: Number(interrupted ?? 0),
});

/** Counter rows that differ from a full recount (rows kept at zero count as absent). */
export async function diffCounters(db: Executor, limit = 1000): Promise<CounterDifference[]> {
  const rows = await selectRows<{
    federative_unit: string;
    day: string | Date;
    scheduling_local: string;
    status: string;
    result: string;
    k_exams: Numeric;
    k_pending: Numeric;
    k_absence: Numeric;
    k_interrupted: Numeric;
    r_exams: Numeric;
    r_pending: Numeric;
    r_absence: Numeric;
    r_interrupted: Numeric;
  }>(
    db,
    sql`with recount as (${RECOUNT}),
    kept as (
      select * from exam_day_counts
      where exams <> 0 or pending_audit <> 0 or absence <> 0 or interrupted <> 0
    )
    select federative_unit, day::text as day, scheduling_local, status, result,
           k.exams as k_exams, k.pending_audit as k_pending, k.absence as k_absence,
           k.interrupted as k_interrupted,
           r.exams as r_exams, r.pending_audit as r_pending, r.absence as r_absence,
           r.interrupted as r_interrupted
    from kept k full join recount r using (federative_unit, day, scheduling_local, status, result)
    where k.exams is distinct from r.exams
       or k.pending_audit is distinct from r.pending_audit
       or k.absence is distinct from r.absence
       or k.interrupted is distinct from r.interrupted
    order by federative_unit, day, scheduling_local, status, result
    limit ${limit}`,
  );
  return rows.map((row) => ({
    federativeUnit: row.federative_unit,
    day: String(row.day).slice(0, 10),
    schedulingLocal: row.scheduling_local,
    status: row.status,
    result: row.result,
    kept: values(row.k_exams, row.k_pending, row.k_absence, row.k_interrupted),
    recounted: values(row.r_exams, row.r_pending, row.r_absence, row.r_interrupted),
  }));
}

/**
 * Recomputes every counter row from the exams, in the caller's transaction.
 * Writes to exams wait meanwhile (share lock), so no change slips between
 * the recount and the new rows. Returns how many counter rows were written.
 */
export async function rebuildCounters(tx: Executor): Promise<number> {
  await tx.execute(sql`lock table exams in share mode`);
  await tx.execute(sql`lock table exam_day_counts in exclusive mode`);
  await tx.execute(sql`delete from exam_day_counts`);
  const inserted = await selectRows<{ n: Numeric }>(
    tx,
    sql`with written as (
      insert into exam_day_counts
        (federative_unit, day, scheduling_local, status, result,
         exams, pending_audit, absence, interrupted)
      ${RECOUNT}
      returning 1
    ) select count(*) as n from written`,
  );
  return Number(inserted[0]?.n ?? 0);
}
