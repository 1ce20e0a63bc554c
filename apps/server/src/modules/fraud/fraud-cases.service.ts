/**
 * "Possíveis fraudes" for auditors and ADMIN (never examiners: the routes'
 * access policy): the unit's cases, one case with its exams side by side,
 * sending its exams to the audit queue, and closing it as confirmed or
 * dismissed with a note. Every view and change is in the activity log: a
 * one-to-many biometric search is a more sensitive processing than the 1:1
 * check (README, "Possíveis fraudes e LGPD").
 *
 * Tenancy: every read and write is of the actor's unit; another unit's case
 * is "not found".
 */
import {
  FRAUD_CASE_ERRORS,
  maskCpf,
  pageReply,
  PERIOD_ERRORS,
  resolveOpenPeriod,
  dayInZone,
  type CloseFraudCaseInput,
  type ExamPhotoLink,
  type FraudCaseDetail,
  type FraudCaseErrorCode,
  type FraudCasePage,
  type FraudCaseQuery,
  type FraudCaseSent,
  type FraudCaseSummary,
} from '@exame/shared';
import type { Database } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import { insertActivity } from '../activity/activity.service';
import type { AuditDeps } from '../audits/audit-claims.service';
import { reopenEffectiveDecision } from '../audits/audit-decisions.service';
import { examPhotoLinker, photoLink } from '../exams/exam-photo-links.service';
import { custodyOf } from '../exams/exams.service';
import {
  caseAggregates,
  caseExams,
  caseMatches,
  findCase,
  listCases,
  photosById,
  referencePhotos,
  updateCase,
  userNames,
  type CaseAggregate,
  type ExamRow,
  type FraudCaseRow,
} from './fraud-cases.repository';
import { lockUnitCases } from './fraud-matches.repository';

export type FraudCaseDeps = {
  db: Database;
  files: FileStorage;
  signedUrlTtlMs: number;
  /** The certificates' revocation when a reopened result changes (app.ts; as the audits get it). */
  resultChanged: AuditDeps['resultChanged'];
};

const fraudError = (code: FraudCaseErrorCode) => AppError.from(FRAUD_CASE_ERRORS, code);

const target = (row: Pick<FraudCaseRow, 'number'>) => `fraud-case:${row.number}`;

function toSummary(row: FraudCaseRow, aggregate: CaseAggregate | undefined): FraudCaseSummary {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    examCount: aggregate?.examCount ?? 0,
    candidateCount: aggregate?.candidateCount ?? 0,
    posts: [...(aggregate?.posts ?? [])].sort((a, b) => a.localeCompare(b, 'pt-BR')),
    firstDate: aggregate ? dayInZone(aggregate.firstDate) : '',
    lastDate: aggregate ? dayInZone(aggregate.lastDate) : '',
    highestSimilarity: row.highestSimilarity,
    sentToAuditAt: row.sentToAuditAt?.toISOString() ?? null,
  };
}

/** `GET api/FraudCase`: newest first, by status, post and period. */
export async function searchCases(
  deps: Pick<FraudCaseDeps, 'db'>,
  actor: SessionUser,
  query: FraudCaseQuery & { page: number; pageSize: number },
): Promise<FraudCasePage> {
  const period = resolveOpenPeriod(query.startDate, query.endDate);
  if (!period.ok) throw AppError.from(PERIOD_ERRORS, period.code);
  const { rows, total } = await listCases(
    deps.db,
    actor.federativeUnit,
    {
      status: query.status === 'all' || !query.status ? undefined : query.status,
      post: query.schedulingLocal || undefined,
      start: period.start,
      endExclusive: period.endExclusive,
    },
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  const aggregates = await caseAggregates(
    deps.db,
    rows.map((row) => row.id),
  );
  return pageReply(query, {
    items: rows.map((row) => toSummary(row, aggregates.get(row.id))),
    total,
  });
}

const inAuditQueue = (exam: Pick<ExamRow, 'status' | 'result'>) =>
  exam.status === 'done' && exam.result === 'in_analysis';

/** The case as its page shows it (no activity written: the caller logs the view). */
async function caseDetail(
  deps: FraudCaseDeps,
  actor: SessionUser,
  row: FraudCaseRow,
): Promise<FraudCaseDetail> {
  const [exams, matches, aggregates] = await Promise.all([
    caseExams(deps.db, row.id),
    caseMatches(deps.db, row.id),
    caseAggregates(deps.db, [row.id]),
  ]);
  const examIds = exams.map((exam) => exam.id);
  const captureIds = matches.flatMap((match) =>
    [match.captureA, match.captureB].filter((id): id is string => Boolean(id)),
  );
  const [references, captures, names, custody] = await Promise.all([
    referencePhotos(deps.db, examIds),
    photosById(deps.db, captureIds),
    userNames(
      deps.db,
      [row.closedBy, row.sentToAuditBy].filter((id): id is string => Boolean(id)),
    ),
    Promise.all(exams.map((exam) => custodyOf(deps.db, actor.federativeUnit, exam))),
  ]);
  const link = examPhotoLinker(deps, actor);
  const linked = new Map<string, ExamPhotoLink>(
    [...references, ...captures].map((photo) => [photo.id, photoLink(photo, link)]),
  );
  const referenceOf = new Map(references.map((photo) => [photo.examId, photo.id]));
  return {
    ...toSummary(row, aggregates.get(row.id)),
    exams: exams.map((exam, index) => ({
      examId: exam.id,
      schedulingId: exam.schedulingId,
      candidateName: exam.candidateName,
      candidateCpf: maskCpf(exam.candidateCpf),
      schedulingDate: exam.schedulingDate.toISOString(),
      schedulingLocal: exam.schedulingLocal,
      schedulingLocalName: exam.postName,
      room: exam.room,
      status: exam.status,
      result: exam.result,
      examiners: [...new Set((custody[index] ?? []).map((entry) => entry.name))],
      reference: linked.get(referenceOf.get(exam.id) ?? '') ?? null,
      inAuditQueue: inAuditQueue(exam),
    })),
    matches: matches.map((match) => ({
      examA: match.examA,
      examB: match.examB,
      similarity: match.similarity,
      captureA: match.captureA ? (linked.get(match.captureA) ?? null) : null,
      captureB: match.captureB ? (linked.get(match.captureB) ?? null) : null,
    })),
    sentToAuditBy: row.sentToAuditBy ? (names.get(row.sentToAuditBy) ?? null) : null,
    closedAt: row.closedAt?.toISOString() ?? null,
    closedBy: row.closedBy ? (names.get(row.closedBy) ?? null) : null,
    note: row.note,
  };
}

/** `GET api/FraudCase/{id}`: the case, its exams and matches; the view is logged. */
export async function getCase(
  deps: FraudCaseDeps,
  actor: SessionUser,
  caseId: string,
): Promise<FraudCaseDetail> {
  const row = await findCase(deps.db, actor.federativeUnit, caseId);
  if (!row) throw fraudError('FRAUD_CASE_NOT_FOUND');
  const detail = await caseDetail(deps, actor, row);
  await insertActivity(deps.db, {
    type: 'fraud_case_view',
    actorId: actor.id,
    federativeUnit: actor.federativeUnit,
    target: target(row),
    payload: {
      caseId: row.id,
      number: row.number,
      exams: detail.exams.map((exam) => exam.schedulingId),
    },
  });
  return detail;
}

/**
 * `POST api/FraudCase/{id}/send-to-audit`: each exam of the case goes to the
 * audit queue with the case attached (the audit screen links it). An exam
 * waiting for audit stays there; a decided one is reopened (its decision
 * `reopened`, "Caso de possível fraude nº N"); one not finished, cancelled,
 * or decided without an auditor's decision is left as it is. One
 * transaction: the case and its exams are locked.
 */
export async function sendCaseToAudit(
  deps: FraudCaseDeps,
  actor: SessionUser,
  caseId: string,
): Promise<FraudCaseSent> {
  return deps.db.transaction(async (tx) => {
    // After any case formation of the unit under way (fraud-detection.service.ts).
    await lockUnitCases(tx, actor.federativeUnit);
    const row = await findCase(tx, actor.federativeUnit, caseId, true);
    if (!row) throw fraudError('FRAUD_CASE_NOT_FOUND');
    if (row.status !== 'open') throw fraudError('FRAUD_CASE_CLOSED');
    const exams = await caseExams(tx, row.id, true);
    const reason = `Caso de possível fraude nº ${row.number}`;
    let sent = 0;
    let alreadyInQueue = 0;
    const reopened: string[] = [];
    for (const exam of exams) {
      if (inAuditQueue(exam)) {
        alreadyInQueue += 1;
        continue;
      }
      if (exam.status !== 'done' || exam.federativeUnit !== actor.federativeUnit) continue;
      if (await reopenEffectiveDecision(tx, deps, actor, exam, reason)) {
        sent += 1;
        reopened.push(exam.schedulingId);
      }
    }
    if (sent + alreadyInQueue === 0) throw fraudError('FRAUD_CASE_NOTHING_TO_AUDIT');
    await updateCase(tx, row.id, { sentToAuditAt: new Date(), sentToAuditBy: actor.id });
    await insertActivity(tx, {
      type: 'fraud_case_send_audit',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      target: target(row),
      payload: { caseId: row.id, number: row.number, reopened, alreadyInQueue },
    });
    return { sent, alreadyInQueue };
  });
}

/** `POST api/FraudCase/{id}/close`: confirmed or dismissed, with a note; never reopened. */
export async function closeCase(
  deps: FraudCaseDeps,
  actor: SessionUser,
  caseId: string,
  input: CloseFraudCaseInput,
): Promise<FraudCaseDetail> {
  const row = await deps.db.transaction(async (tx) => {
    // A case formation under way ends before the case closes: a closed case gets no new pair.
    await lockUnitCases(tx, actor.federativeUnit);
    const found = await findCase(tx, actor.federativeUnit, caseId, true);
    if (!found) throw fraudError('FRAUD_CASE_NOT_FOUND');
    if (found.status !== 'open') throw fraudError('FRAUD_CASE_CLOSED');
    const closedAt = new Date();
    await updateCase(tx, found.id, {
      status: input.outcome,
      closedAt,
      closedBy: actor.id,
      note: input.note,
    });
    await insertActivity(tx, {
      type: 'fraud_case_close',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      target: target(found),
      payload: { caseId: found.id, number: found.number, outcome: input.outcome, note: input.note },
    });
    return { ...found, status: input.outcome, closedAt, closedBy: actor.id, note: input.note };
  });
  return caseDetail(deps, actor, row);
}
