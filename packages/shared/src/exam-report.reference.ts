/**
 * The counting rules of spec 4 written in JavaScript, over loaded rows: the
 * reference the SQL of the report is checked against (tests) and measured
 * against (bench). The server never runs it, so it is not part of the
 * package's runtime entry: import it from `@exame/shared/exam-report-reference`.
 */
import {
  addCounters,
  compareLocalReports,
  emptyCounters,
  localIdOf,
  UNKNOWN_LOCAL_NAME,
  type LocalReport,
  type ReportCounters,
  type ReportScope,
} from './exam-report';
import type { ExamResult, ExamStatus } from './exams';

export type ReportExamInput = {
  federativeUnit: string;
  schedulingDate: Date | string;
  status: ExamStatus;
  result: ExamResult | null;
  schedulingLocal: string | null;
  pendingAudit: number;
  absence: number;
  interrupted: number;
};

/** What one exam adds to its local's counters; a cancelled exam adds nothing (spec 5). */
export function examContributions(
  exam: Omit<ReportExamInput, 'federativeUnit' | 'schedulingDate' | 'schedulingLocal'>,
): ReportCounters {
  const counters = emptyCounters();
  if (exam.status === 'cancelled') return counters;
  counters.total = 1;
  if (exam.status === 'scheduled') counters.scheduled = 1;
  if (exam.status === 'started') counters.started = 1;
  if (exam.status === 'absence') counters.absence = 1;
  if (exam.status === 'done') {
    counters.finished = 1;
    if (exam.result === 'in_analysis') counters.pendingAudit = 1;
    if (exam.result === 'approved') counters.approved = 1;
    if (exam.result === 'reproved') counters.reproved = 1;
    if (exam.result === 'disqualified') counters.disqualified = 1;
  }
  counters.pendingAudit += exam.pendingAudit;
  counters.absence += exam.absence;
  counters.interrupted += exam.interrupted;
  return counters;
}

/**
 * Names of local ids: each scheduling local of the unit names the id its
 * identifier maps to; when several map to the same id, the first identifier
 * (code-point order) wins.
 */
export function localNamesOf(
  locals: ReadonlyArray<{ federativeUnit: string; identifier: string; description: string }>,
  unit: string,
  prefix: string,
): Map<string, string> {
  const names = new Map<string, string>();
  const sorted = locals
    .filter((local) => local.federativeUnit === unit)
    .sort((a, b) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0));
  for (const local of sorted) {
    const id = localIdOf(unit, local.identifier, prefix);
    if (!names.has(id)) names.set(id, local.description);
  }
  return names;
}

/**
 * The report of spec 7 computed in JavaScript over loaded rows: the unit's
 * exams in [start, endExclusive), cancelled excluded, grouped by local id,
 * named from the scheduling locals or `Desconhecido`.
 */
export function countLocalReports(
  exams: Iterable<ReportExamInput>,
  locals: ReadonlyArray<{ federativeUnit: string; identifier: string; description: string }>,
  scope: ReportScope,
): LocalReport[] {
  const start = scope.start.getTime();
  const end = scope.endExclusive.getTime();
  const byLocal = new Map<string, ReportCounters>();
  for (const exam of exams) {
    if (exam.federativeUnit !== scope.unit || exam.status === 'cancelled') continue;
    const at = new Date(exam.schedulingDate).getTime();
    if (!(at >= start && at < end)) continue;
    const id = localIdOf(scope.unit, exam.schedulingLocal, scope.prefix);
    let counters = byLocal.get(id);
    if (!counters) {
      counters = emptyCounters();
      byLocal.set(id, counters);
    }
    addCounters(counters, examContributions(exam));
  }
  const names = localNamesOf(locals, scope.unit, scope.prefix);
  return [...byLocal.entries()]
    .map(([id, report]) => ({ id, name: names.get(id) ?? UNKNOWN_LOCAL_NAME, report }))
    .sort(compareLocalReports);
}
