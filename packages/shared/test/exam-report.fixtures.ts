/**
 * Test fixtures of the exam report, shared by the JavaScript tests and the
 * SQL tests (PGlite and PostgreSQL): one exam of every status × result ×
 * metadata combination per unit, exams on each side of both range bounds,
 * exams of a local no scheduling local names and exams without a local.
 * Test support, kept out of the package's source folder: tests import it by path.
 */
import { EXAM_RESULTS, EXAM_STATUSES, type ExamResult, type ExamStatus } from '../src/exams';
import {
  emptyCounters,
  REPORT_COUNTERS,
  type ReportCounter,
  type ReportCounters,
} from '../src/exam-report';
import type { ReportExamInput } from '../src/exam-report.reference';
import { zonedDayStart, addDays } from '../src/period';

/**
 * Spec 4, written out for every status and result: what one exam adds before
 * its metadata. `cancelled` adds nothing (spec 5); the status decides
 * `scheduled`, `started` and `absence` whatever the result says.
 */
export const CONTRIBUTION_TABLE: ReadonlyArray<
  [ExamStatus, ExamResult | null, Partial<Record<ReportCounter, number>>]
> = [
  ['scheduled', null, { total: 1, scheduled: 1 }],
  ['scheduled', 'in_analysis', { total: 1, scheduled: 1 }],
  ['scheduled', 'approved', { total: 1, scheduled: 1 }],
  ['scheduled', 'reproved', { total: 1, scheduled: 1 }],
  ['scheduled', 'disqualified', { total: 1, scheduled: 1 }],
  ['started', null, { total: 1, started: 1 }],
  ['started', 'in_analysis', { total: 1, started: 1 }],
  ['started', 'approved', { total: 1, started: 1 }],
  ['started', 'reproved', { total: 1, started: 1 }],
  ['started', 'disqualified', { total: 1, started: 1 }],
  ['done', null, { total: 1, finished: 1 }],
  ['done', 'in_analysis', { total: 1, finished: 1, pendingAudit: 1 }],
  ['done', 'approved', { total: 1, finished: 1, approved: 1 }],
  ['done', 'reproved', { total: 1, finished: 1, reproved: 1 }],
  ['done', 'disqualified', { total: 1, finished: 1, disqualified: 1 }],
  ['absence', null, { total: 1, absence: 1 }],
  ['absence', 'in_analysis', { total: 1, absence: 1 }],
  ['absence', 'approved', { total: 1, absence: 1 }],
  ['absence', 'reproved', { total: 1, absence: 1 }],
  ['absence', 'disqualified', { total: 1, absence: 1 }],
  ['cancelled', null, {}],
  ['cancelled', 'in_analysis', {}],
  ['cancelled', 'approved', {}],
  ['cancelled', 'reproved', {}],
  ['cancelled', 'disqualified', {}],
];

/** Metadata values tried with every status and result; non-zero ones add to their counter. */
export const METADATA_COMBINATIONS: ReadonlyArray<
  Pick<ReportExamInput, 'pendingAudit' | 'absence' | 'interrupted'>
> = [0, 1].flatMap((absence) =>
  [0, 1].flatMap((interrupted) =>
    [0, 2].map((pendingAudit) => ({ pendingAudit, absence, interrupted })),
  ),
);

/** The expected contribution of an exam, from the table above plus its metadata. */
export function expectedContribution(exam: ReportExamInput): ReportCounters {
  const row = CONTRIBUTION_TABLE.find(
    ([status, result]) => status === exam.status && result === exam.result,
  );
  if (!row) throw new Error(`sem linha na tabela para ${exam.status}/${exam.result}`);
  const counters = { ...emptyCounters(), ...row[2] };
  if (exam.status !== 'cancelled') {
    counters.pendingAudit += exam.pendingAudit;
    counters.absence += exam.absence;
    counters.interrupted += exam.interrupted;
  }
  return counters;
}

export const FIXTURE_START_DAY = '2026-03-01';
export const FIXTURE_END_DAY = '2026-03-31';

export type FixtureExam = ReportExamInput & {
  schedulingId: string;
  /** The local id the report must put it under, or null when it must be left out. */
  expectedLocalId: string | null;
};

export type FixtureLocal = { federativeUnit: string; identifier: string; description: string };

export type ReportFixtures = {
  locals: FixtureLocal[];
  exams: FixtureExam[];
};

/**
 * Fixtures of one unit. `prefix` is the unit's configured local prefix: the
 * scheduling locals are written `<prefix>POSTO01` and the exams
 * `<prefix>POSTO01-S1`, as the delivery system does.
 */
export function buildUnitFixtures(unit: string, prefix: string): ReportFixtures {
  // Spec 7, written out independently: CE is `CE.` and the post, whether the
  // local was stored with `CE.` or without it; other units `DF.` and the post.
  const localIdFor = (suffix: string) => (unit === 'CE' ? `CE.${suffix}` : `DF.${suffix}`);
  const locals: FixtureLocal[] = [
    { federativeUnit: unit, identifier: `${prefix}POSTO01`, description: `Posto Centro ${unit}` },
    { federativeUnit: unit, identifier: `${prefix}POSTO02`, description: `Posto Norte ${unit}` },
    {
      federativeUnit: unit,
      identifier: `${prefix}POSTO03`,
      description: `Posto Sem Exames ${unit}`,
    },
  ];
  // CE keeps the whole scheduling local (spec 7), so its exams name the local exactly.
  const examLocal = (suffix: string, room: number) =>
    unit === 'CE' ? `${prefix}${suffix}` : `${prefix}${suffix}-S${room}`;
  const start = zonedDayStart(FIXTURE_START_DAY);
  const endExclusive = zonedDayStart(addDays(FIXTURE_END_DAY, 1));
  const exams: FixtureExam[] = [];
  let sequence = 0;
  const push = (exam: Omit<FixtureExam, 'federativeUnit' | 'schedulingId'>) => {
    sequence += 1;
    exams.push({
      ...exam,
      federativeUnit: unit,
      schedulingId: `${unit}-FX-${String(sequence).padStart(4, '0')}`,
    });
  };

  const places = ['POSTO01', 'POSTO02', 'POSTO99'] as const;
  let index = 0;
  for (const status of EXAM_STATUSES) {
    for (const result of [null, ...EXAM_RESULTS] as const) {
      for (const metadata of METADATA_COMBINATIONS) {
        const place = places[index % places.length] ?? 'POSTO01';
        const day = 1 + (index % 31);
        const schedulingDate = new Date(
          start.getTime() + (day - 1) * 86_400_000 + (8 + (index % 10)) * 3_600_000,
        );
        push({
          schedulingDate,
          status,
          result,
          schedulingLocal: examLocal(place, 1 + (index % 3)),
          ...metadata,
          expectedLocalId: status === 'cancelled' ? null : localIdFor(place),
        });
        index += 1;
      }
    }
  }

  const edge = {
    status: 'done' as const,
    result: 'approved' as const,
    pendingAudit: 0,
    absence: 0,
    interrupted: 1,
  };
  push({
    ...edge,
    schedulingDate: start,
    schedulingLocal: examLocal('POSTO01', 1),
    expectedLocalId: localIdFor('POSTO01'),
  });
  push({
    ...edge,
    schedulingDate: new Date(start.getTime() - 1),
    schedulingLocal: examLocal('POSTO01', 1),
    expectedLocalId: null,
  });
  push({
    ...edge,
    schedulingDate: new Date(endExclusive.getTime() - 1),
    schedulingLocal: examLocal('POSTO02', 2),
    expectedLocalId: localIdFor('POSTO02'),
  });
  push({
    ...edge,
    schedulingDate: endExclusive,
    schedulingLocal: examLocal('POSTO02', 2),
    expectedLocalId: null,
  });
  // No scheduling local at all.
  push({
    ...edge,
    status: 'started',
    result: null,
    schedulingDate: new Date(start.getTime() + 5 * 86_400_000),
    schedulingLocal: null,
    expectedLocalId: 'sem-local',
  });
  // A local that does not start with the unit's prefix keeps its text up to the first dash.
  push({
    ...edge,
    status: 'scheduled',
    result: null,
    schedulingDate: new Date(start.getTime() + 9 * 86_400_000),
    schedulingLocal: unit === 'CE' ? 'OUTRO-POSTO' : 'OUTRO.POSTO-S1',
    expectedLocalId: unit === 'CE' ? 'CE.OUTRO-POSTO' : 'OUTRO.POSTO',
  });
  return { locals, exams };
}

/** The expected report of a unit's fixtures, computed from the contribution table. */
export function expectedReport(fixtures: ReportFixtures): Map<string, ReportCounters> {
  const byLocal = new Map<string, ReportCounters>();
  for (const exam of fixtures.exams) {
    if (exam.expectedLocalId === null) continue;
    const counters = byLocal.get(exam.expectedLocalId) ?? emptyCounters();
    const contribution = expectedContribution(exam);
    for (const counter of REPORT_COUNTERS) counters[counter] += contribution[counter];
    byLocal.set(exam.expectedLocalId, counters);
  }
  return byLocal;
}
