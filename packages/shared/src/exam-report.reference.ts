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
  emptyMetadataCounts,
  localIdOf,
  METADATA_COUNTERS,
  postIdentifierOf,
  UNKNOWN_LOCAL_NAME,
  type LocalReport,
  type MetadataCounts,
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
  return new Map(
    [...namingLocalsOf(locals, unit, prefix)].map(([id, local]) => [id, local.description]),
  );
}

/** The scheduling local that names each local id (the first identifier in code-point order). */
function namingLocalsOf(
  locals: ReadonlyArray<{ federativeUnit: string; identifier: string; description: string }>,
  unit: string,
  prefix: string,
): Map<string, { identifier: string; description: string }> {
  const naming = new Map<string, { identifier: string; description: string }>();
  const sorted = locals
    .filter((local) => local.federativeUnit === unit)
    .sort((a, b) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0));
  for (const local of sorted) {
    const id = localIdOf(unit, local.identifier, prefix);
    if (!naming.has(id)) naming.set(id, local);
  }
  return naming;
}

/** The lower of two identifiers in code-point order, either possibly missing. */
function lowerIdentifier(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a < b ? a : b;
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
  type Local = { report: ReportCounters; fromMetadata: MetadataCounts; identifier: string | null };
  const byLocal = new Map<string, Local>();
  for (const exam of exams) {
    if (exam.federativeUnit !== scope.unit || exam.status === 'cancelled') continue;
    const at = new Date(exam.schedulingDate).getTime();
    if (!(at >= start && at < end)) continue;
    const id = localIdOf(scope.unit, exam.schedulingLocal, scope.prefix);
    let local = byLocal.get(id);
    if (!local) {
      local = { report: emptyCounters(), fromMetadata: emptyMetadataCounts(), identifier: null };
      byLocal.set(id, local);
    }
    addCounters(local.report, examContributions(exam));
    for (const counter of METADATA_COUNTERS) local.fromMetadata[counter] += exam[counter];
    local.identifier = lowerIdentifier(
      local.identifier,
      postIdentifierOf(scope.unit, exam.schedulingLocal, scope.prefix),
    );
  }
  const naming = namingLocalsOf(locals, scope.unit, scope.prefix);
  return [...byLocal.entries()]
    .map(([id, local]) => ({
      id,
      // A post named by a scheduling local shows that local's identifier; another, its exams'.
      identifier: naming.get(id)?.identifier ?? local.identifier,
      name: naming.get(id)?.description ?? UNKNOWN_LOCAL_NAME,
      report: local.report,
      fromMetadata: local.fromMetadata,
    }))
    .sort(compareLocalReports);
}
