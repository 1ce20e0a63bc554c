/**
 * The SQL of the audit queue: the unit's exams waiting for an auditor, with
 * their counts, the name of their post and what the face engine made of
 * their photos.
 */
import { TOTAL_COUNT_CAP, cappedTotal } from '@exame/shared';
import { and, asc, count, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { auditClaims, examPhotos, exams } from '../../db/schema/index';
import type { ExamRow } from './audit-claims.repository';

/**
 * Done and waiting for an auditor (spec 4: `in_analysis`). Written as
 * constants, not values, so the planner matches the partial index
 * `exams_audit_queue_idx` (migration 0028) in every plan.
 */
const pending = sql`${exams.status} = 'done' and ${exams.result} = 'in_analysis'`;

/** A live claim (not ended, not past its time) on the exam row of the outer query. */
const liveClaimOf = (now: Date) =>
  sql`exists (select 1 from ${auditClaims} c where c.exam_id = ${exams.id}
      and c.ended_at is null and c.expires_at > ${now.toISOString()}::timestamptz)`;

export type QueueFilter = {
  page: number;
  pageSize: number;
  schedulingLocal?: string;
  start?: Date;
  endExclusive?: Date;
  withOccurrences?: boolean;
  onlyFree?: boolean;
  stage?: 'all' | 'decision' | 'confirmation';
  sort?: 'oldest' | 'similarity';
  now: Date;
  /** The running engine's descriptor version: a lowest similarity of another engine ranks as unread. */
  faceVersion: string;
  /**
   * How the caller gets the total when the page does not tell it (the day
   * counters); null from it, or none given: the rows are counted here.
   */
  countTotal?: () => Promise<number | null>;
};

const awaitingOf = sql`exists (select 1 from audit_decisions d where d.exam_id = ${exams.id}
      and d.state = 'awaiting_confirmation')`;

export type QueueRow = ExamRow & {
  occurrenceCount: number;
  photoCount: number;
  /** The post's name: the unit's scheduling local of the exam's local without its room suffix. */
  localName: string | null;
};

/**
 * The unit's exams waiting for audit, oldest exam first, with their counts;
 * the total is the page's own when it is a short first page, else the
 * caller's (`countTotal`), else counted up to the cap.
 */
export async function listQueue(
  db: Executor,
  unit: string,
  filter: QueueFilter,
): Promise<{ items: QueueRow[]; total: number; totalCapped?: boolean }> {
  const conditions: Array<SQL | undefined> = [eq(exams.federativeUnit, unit), pending];
  if (filter.schedulingLocal) {
    conditions.push(
      or(
        eq(exams.schedulingLocal, filter.schedulingLocal),
        sql`split_part(${exams.schedulingLocal}, '-', 1) = ${filter.schedulingLocal}`,
      ),
    );
  }
  if (filter.start) conditions.push(gte(exams.schedulingDate, filter.start));
  if (filter.endExclusive) conditions.push(lt(exams.schedulingDate, filter.endExclusive));
  if (filter.withOccurrences) {
    conditions.push(sql`exists (select 1 from occurrences o where o.exam_id = ${exams.id})`);
  }
  if (filter.onlyFree) conditions.push(sql`not ${liveClaimOf(filter.now)}`);
  if (filter.stage === 'decision') conditions.push(sql`not ${awaitingOf}`);
  if (filter.stage === 'confirmation') conditions.push(awaitingOf);
  const where = and(...conditions);
  const order =
    filter.sort === 'similarity'
      ? // The least like its reference first; exams not read yet after those read.
        [
          sql`case when ${exams.faceMinSimilarityVersion} = ${filter.faceVersion}
                then ${exams.faceMinSimilarity} end asc nulls last`,
          asc(exams.schedulingDate),
          asc(exams.schedulingId),
        ]
      : // Oldest exam first: the candidate who has waited longest for the result.
        [asc(exams.schedulingDate), asc(exams.schedulingId)];
  const rows = await db
    .select({
      exam: exams,
      occurrenceCount: sql<number>`(select count(*)::int from occurrences o where o.exam_id = "exams"."id")`,
      photoCount: sql<number>`(select count(*)::int from exam_photos p where p.exam_id = "exams"."id" and p.kind = 'capture')`,
      // The same rule as the exam list: the identifier is the local up to its room suffix.
      localName: sql<string | null>`(select l.description from scheduling_locals l
        where l.federative_unit = "exams"."federative_unit"
          and l.identifier = split_part("exams"."scheduling_local", '-', 1) limit 1)`,
    })
    .from(exams)
    .where(where)
    .orderBy(...order)
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);
  const items = rows.map((row) => ({
    ...row.exam,
    occurrenceCount: row.occurrenceCount,
    photoCount: row.photoCount,
    localName: row.localName,
  }));
  // A first page that is not full is the whole queue: nothing to count.
  if (filter.page === 1 && rows.length < filter.pageSize) return { items, total: rows.length };
  const given = filter.countTotal ? await filter.countTotal() : null;
  if (given !== null) return { items, total: given };
  const [counted] = await db.select({ total: count() }).from(
    db
      .select({ one: sql`1` })
      .from(exams)
      .where(where)
      .limit(TOTAL_COUNT_CAP + 1)
      .as('capped'),
  );
  return { items, ...cappedTotal(counted?.total ?? 0) };
}

/**
 * What the running engine read in an exam's photos: its captures by reading,
 * and its reference's reading (null without a reference). A reading of
 * another engine counts as unread, as on the audit page.
 */
export type FaceSummary = {
  captures: number;
  capturesFound: number;
  capturesUnread: number;
  reference: 'pending' | 'found' | 'no_face' | null;
};

export async function faceSummariesOf(
  db: Executor,
  examIds: string[],
  version: string,
): Promise<Map<string, FaceSummary>> {
  if (examIds.length === 0) return new Map();
  const status = sql<string>`case when ${examPhotos.faceDescriptorVersion} = ${version}
    then ${examPhotos.faceStatus} else 'pending' end`;
  const rows = await db
    .select({
      examId: examPhotos.examId,
      captures: sql<number>`count(*) filter (where ${examPhotos.kind} = 'capture')::int`,
      capturesFound: sql<number>`count(*) filter (where ${examPhotos.kind} = 'capture' and ${status} = 'found')::int`,
      capturesUnread: sql<number>`count(*) filter (where ${examPhotos.kind} = 'capture' and ${status} = 'pending')::int`,
      reference: sql<
        FaceSummary['reference']
      >`min(${status}) filter (where ${examPhotos.kind} = 'reference')`,
    })
    .from(examPhotos)
    .where(inArray(examPhotos.examId, examIds))
    .groupBy(examPhotos.examId);
  return new Map(
    rows.map((row) => [
      row.examId,
      {
        captures: Number(row.captures),
        capturesFound: Number(row.capturesFound),
        capturesUnread: Number(row.capturesUnread),
        reference: row.reference,
      },
    ]),
  );
}
