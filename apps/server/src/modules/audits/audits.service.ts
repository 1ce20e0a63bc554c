/**
 * The audit queue and the auditors' claims (`load_audit`).
 *
 * Tenancy: every read and write is scoped by the actor's `federativeUnit`;
 * an exam of another unit is simply not found. A claim and its activity
 * event share one transaction, which locks the exam first: two auditors
 * opening the same exam at once are served one after the other, and exactly
 * one holds it. The other gets 409 with the auditor alert of spec 2 (who
 * holds it, and who worked on it before).
 */
import {
  AUDIT_ERRORS,
  AUDITOR_ALERT_TEXTS,
  FACE_SCORE_ROLES,
  maskCpf,
  pageReply,
  resolveOpenPeriod,
  outcomeFromScore,
  similarityLevel,
  type AuditClaim,
  type AuditConfirmationInput,
  type AuditDecision,
  type AuditDecisionInput,
  type AuditDecisionResult,
  type AuditDetail,
  type AuditOutcome,
  type AuditPhoto,
  type AuditReopenInput,
  type Auditor,
  type ExamResult,
  type MyAudit,
  type MyPhotoAudit,
  type PhotoMarkInput,
  type PhotoVerdict,
  type AuditorAlert,
  type AuditQueueItem,
  type Page,
  type Role,
} from '@exame/shared';
import { randomInt } from 'node:crypto';
import type { FaceService } from '../../biometrics/face-engine';
import type { Database, Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import { insertActivity } from '../activity/activity.repository';
import { revokeForResult } from '../certificates/certificates.service';
import { lockReason } from '../disqualification-reasons/disqualification-reasons.repository';
import {
  historyOf,
  insertHistory,
  localName,
  occurrencesOf,
  updateExam,
} from '../exams/exams.repository';
import {
  examPhotoLinker,
  historyEntryView,
  occurrenceView,
  photoLink,
  publishExamChanges,
  toExam,
} from '../exams/exams.service';
import {
  endClaim,
  endExpiredClaims,
  extendClaim,
  findAwaitingDecisions,
  findCapture,
  findLiveClaims,
  findOpenDecision,
  findUnitExam,
  insertClaim,
  insertDecision,
  listAuditPhotos,
  listClaimsOfExam,
  listDecisionsBy,
  listDecisionsOf,
  listLiveClaimsOf,
  listPhotoAuditsBy,
  listQueue,
  lockExam,
  updateDecision,
  upsertMark,
  type AuditPhotoRow,
  type ClaimWithAuditor,
  type DecisionView,
  type ExamRow,
} from './audits.repository';
import { currentDescriptor, currentStatus, readExamFaces } from './photo-faces.service';

export type AuditDeps = {
  db: Database;
  files: FileStorage;
  face: FaceService;
  claimMs: number;
  signedUrlTtlMs: number;
  /** A disqualification takes effect only when a second auditor confirms it. */
  twoPersonRule: boolean;
  /** Share of approvals drawn for a re-check by a different auditor (0..1). */
  recheckRate: number;
  /** A number in [0, 1) (crypto by default; fixed in tests). */
  random?: () => number;
  now?: () => Date;
};

const auditError = (code: keyof typeof AUDIT_ERRORS) => AppError.from(AUDIT_ERRORS, code);
const clock = (deps: AuditDeps) => (deps.now ? deps.now() : new Date());

function toClaim(
  claim: ClaimWithAuditor,
  exam: Pick<ExamRow, 'schedulingId'>,
  actor: SessionUser,
): AuditClaim {
  return {
    examId: claim.examId,
    schedulingId: exam.schedulingId,
    auditorName: claim.auditorName,
    mine: claim.auditorId === actor.id,
    claimedAt: claim.claimedAt.toISOString(),
    expiresAt: claim.expiresAt.toISOString(),
  };
}

const auditorOf = (claim: ClaimWithAuditor): Auditor => ({
  auditorCpf: maskCpf(claim.auditorCpf),
  auditorName: claim.auditorName,
  date: claim.claimedAt.toISOString(),
});

/** The auditor alert of spec 2: who holds the exam, and every auditor who worked on it (once each). */
export function auditorAlert(holder: ClaimWithAuditor, history: ClaimWithAuditor[]): AuditorAlert {
  const seen = new Set<string>();
  const audit: Auditor[] = [];
  for (const claim of history) {
    if (seen.has(claim.auditorId)) continue;
    seen.add(claim.auditorId);
    audit.push(auditorOf(claim));
  }
  return {
    title: AUDITOR_ALERT_TEXTS.title,
    messageAuditor: AUDITOR_ALERT_TEXTS.messageAuditor,
    auditor: auditorOf(holder),
    message: AUDITOR_ALERT_TEXTS.message,
    audit,
  };
}

/** `GET api/Audit/queue`: the unit's exams waiting for an auditor, oldest first. */
export async function searchQueue(
  deps: AuditDeps,
  actor: SessionUser,
  query: {
    page: number;
    pageSize: number;
    schedulingLocal?: string;
    startDate?: string;
    endDate?: string;
    withOccurrences?: boolean;
    onlyFree?: boolean;
    stage?: 'all' | 'decision' | 'confirmation';
    sort?: 'oldest' | 'similarity';
  },
): Promise<Page<AuditQueueItem>> {
  const period = resolveOpenPeriod(query.startDate, query.endDate);
  if (!period.ok) throw AppError.badRequest(period.code, period.message);
  const now = clock(deps);
  const faceVersion = deps.face.descriptorVersion;
  const found = await listQueue(deps.db, actor.federativeUnit, {
    ...query,
    start: period.start,
    endExclusive: period.endExclusive,
    now,
    faceVersion,
  });
  const ids = found.items.map((exam) => exam.id);
  const [claims, awaiting] = await Promise.all([
    findLiveClaims(deps.db, ids, now),
    findAwaitingDecisions(deps.db, ids),
  ]);
  const seesScores = (FACE_SCORE_ROLES as readonly Role[]).includes(actor.role);
  const threshold = deps.face.thresholdFor(actor.federativeUnit);
  return pageReply(query, {
    total: found.total,
    items: found.items.map((exam) => {
      const claim = claims.find((entry) => entry.examId === exam.id);
      const proposal = awaiting.find((entry) => entry.examId === exam.id);
      // Another engine's lowest similarity is not comparable with this one's: unknown until read again.
      const lowest = exam.faceMinSimilarityVersion === faceVersion ? exam.faceMinSimilarity : null;
      return {
        id: exam.id,
        schedulingId: exam.schedulingId,
        candidateName: exam.candidateName,
        candidateCpf: maskCpf(exam.candidateCpf),
        schedulingLocal: exam.schedulingLocal,
        schedulingDate: exam.schedulingDate.toISOString(),
        finishedAt: exam.finishedAt?.toISOString() ?? null,
        occurrences: exam.occurrenceCount,
        photos: exam.photoCount,
        faceMinSimilarity: seesScores ? lowest : null,
        // The stored reading keeps the similarity (1 - distance) only: the level is computed on read.
        faceMinLevel: lowest === null ? null : similarityLevel(1 - lowest, threshold),
        awaitingConfirmation: proposal
          ? { auditorName: proposal.auditorName, outcome: proposal.outcome }
          : null,
        claim: claim ? toClaim(claim, exam, actor) : null,
      };
    }),
  });
}

/**
 * `POST api/Audit/{examId}/claim`: the auditor takes the exam (`load_audit`)
 * for the configured time, or keeps it longer when it is already theirs.
 */
export async function claimExam(
  deps: AuditDeps,
  actor: SessionUser,
  examId: string,
): Promise<AuditClaim> {
  return deps.db.transaction(async (tx) => {
    const exam = await lockExam(tx, actor.federativeUnit, examId);
    if (!exam) throw auditError('AUDIT_EXAM_NOT_FOUND');
    if (exam.status !== 'done' || exam.result !== 'in_analysis') {
      throw auditError('AUDIT_NOT_PENDING');
    }
    const now = clock(deps);
    const expiresAt = new Date(now.getTime() + deps.claimMs);
    await endExpiredClaims(tx, exam.id, now);
    const [live] = await findLiveClaims(tx, [exam.id], now);
    if (live && live.auditorId !== actor.id) {
      throw auditError('AUDIT_CLAIMED_BY_OTHER').withFields({
        alert: auditorAlert(live, await listClaimsOfExam(tx, exam.id)),
      });
    }
    const claim = live
      ? { ...live, ...(await extendClaim(tx, live.id, expiresAt)) }
      : {
          ...(await insertClaim(tx, {
            federativeUnit: actor.federativeUnit,
            examId: exam.id,
            auditorId: actor.id,
            claimedAt: now,
            expiresAt,
          })),
          auditorName: actor.name,
          auditorCpf: actor.cpf,
        };
    await insertActivity(tx, {
      type: 'load_audit',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: {
        examId: exam.id,
        schedulingId: exam.schedulingId,
        expiresAt: expiresAt.toISOString(),
        renewed: live !== undefined,
      },
      target: `exam:${exam.schedulingId}`,
    });
    return toClaim(claim, exam, actor);
  });
}

/** `POST api/Audit/{examId}/release`: the auditor gives the exam back to the queue. */
export async function releaseExam(
  deps: AuditDeps,
  actor: SessionUser,
  examId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const exam = await lockExam(tx, actor.federativeUnit, examId);
    if (!exam) throw auditError('AUDIT_EXAM_NOT_FOUND');
    const now = clock(deps);
    const [live] = await findLiveClaims(tx, [exam.id], now);
    if (!live || live.auditorId !== actor.id) throw auditError('AUDIT_CLAIM_NOT_FOUND');
    await endClaim(tx, live.id, { at: now, reason: 'released' });
    await insertActivity(tx, {
      type: 'release_audit',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: { examId: exam.id, schedulingId: exam.schedulingId },
    });
  });
}

/** `GET api/Audit/mine` (my audit): the exams the auditor holds now, and the decisions they made. */
export async function myAudit(deps: AuditDeps, actor: SessionUser): Promise<MyAudit> {
  const [claims, decisions] = await Promise.all([
    listLiveClaimsOf(deps.db, actor.federativeUnit, actor.id, clock(deps)),
    listDecisionsBy(deps.db, actor.federativeUnit, actor.id, 100),
  ]);
  return {
    holding: claims.map((claim) => toClaim(claim, claim.exam, actor)),
    decided: decisions.map((decision) => ({
      examId: decision.examId,
      schedulingId: decision.exam.schedulingId,
      candidateName: decision.exam.candidateName,
      outcome: decision.outcome,
      state: decision.state,
      decidedAt: decision.decidedAt.toISOString(),
    })),
  };
}

/** `GET api/Audit/photo-audits/mine` (my photo audit): the exams whose captures the auditor marked. */
export async function myPhotoAudit(deps: AuditDeps, actor: SessionUser): Promise<MyPhotoAudit> {
  const rows = await listPhotoAuditsBy(deps.db, actor.federativeUnit, actor.id, 100);
  return rows.map((row) => ({ ...row, lastMarkedAt: row.lastMarkedAt.toISOString() }));
}

const toDecision = (decision: DecisionView, actor: SessionUser): AuditDecision => ({
  id: decision.id,
  outcome: decision.outcome,
  state: decision.state,
  confirmation: decision.confirmation,
  reason:
    decision.reasonCode !== null && decision.reasonText !== null
      ? { code: decision.reasonCode, text: decision.reasonText }
      : null,
  note: decision.note,
  auditorName: decision.auditorName,
  mine: decision.auditorId === actor.id,
  decidedAt: decision.decidedAt.toISOString(),
  confirmedBy: decision.confirmerName,
  confirmedAt: decision.confirmedAt?.toISOString() ?? null,
  confirmationNote: decision.confirmationNote,
  reopenedBy: decision.reopenerName,
  reopenedAt: decision.reopenedAt?.toISOString() ?? null,
  reopenReason: decision.reopenReason,
});

/**
 * `GET api/Audit/{examId}`: the exam as the auditor judges it (spec 2
 * `auditoria/:id`): candidate, timeline, occurrences, the reference photo and
 * the captures, least like the reference first, with the engine's similarity
 * and the photo audit's marks, the decisions and who holds the exam. The
 * photos the engine has not read yet are read first.
 */
export async function getAuditDetail(
  deps: AuditDeps,
  actor: SessionUser,
  examId: string,
): Promise<AuditDetail> {
  const exam = await findUnitExam(deps.db, actor.federativeUnit, examId);
  if (!exam) throw auditError('AUDIT_EXAM_NOT_FOUND');
  try {
    await readExamFaces(deps, exam.id);
  } catch {
    // The engine being down does not keep the auditor from the exam: the photos show as unread.
  }
  const now = clock(deps);
  const [history, occurrenceRows, photos, name, [live], decisions] = await Promise.all([
    historyOf(deps.db, exam.id),
    occurrencesOf(deps.db, exam.id),
    listAuditPhotos(deps.db, exam.id),
    localName(deps.db, actor.federativeUnit, exam.schedulingLocal),
    findLiveClaims(deps.db, [exam.id], now),
    listDecisionsOf(deps.db, exam.id),
  ]);
  const link = examPhotoLinker(deps, actor);
  const referenceRow = photos.find((photo) => photo.kind === 'reference');
  // The exam is of the actor's unit (findUnitExam): that unit's threshold reads its photos.
  const threshold = deps.face.thresholdFor(actor.federativeUnit);
  const version = deps.face.descriptorVersion;
  const reference = currentDescriptor(referenceRow, version);
  const toPhoto = (photo: AuditPhotoRow): AuditPhoto => {
    const status = currentStatus(photo, version);
    let face: AuditPhoto['face'] = {
      status,
      similarity: null,
      distance: null,
      level: null,
      match: null,
    };
    const capture = photo.kind === 'capture' ? currentDescriptor(photo, version) : null;
    if (capture && reference) {
      const compared = deps.face.compare(reference, capture, threshold);
      face = {
        status,
        similarity: compared.similarity,
        distance: compared.distance,
        level: similarityLevel(compared.distance, threshold),
        match: compared.match,
      };
    }
    return {
      ...photoLink(photo, link),
      face,
      mark:
        photo.verdict && photo.markedAt && photo.markerName
          ? {
              verdict: photo.verdict,
              auditorName: photo.markerName,
              markedAt: photo.markedAt.toISOString(),
            }
          : null,
    };
  };
  // The raw numbers stay on ADMIN screens; the other roles get the level (FACE_SCORE_ROLES).
  const seesScores = (FACE_SCORE_ROLES as readonly Role[]).includes(actor.role);
  const shown = (photo: AuditPhoto): AuditPhoto =>
    seesScores ? photo : { ...photo, face: { ...photo.face, similarity: null, distance: null } };
  const captures = photos
    .filter((photo) => photo.kind === 'capture')
    .map(toPhoto)
    // Least like the reference first; unread or faceless captures after, by time.
    .sort((a, b) => {
      const sa = a.face.similarity;
      const sb = b.face.similarity;
      if (sa !== null && sb !== null && sa !== sb) return sa - sb;
      if (sa === null && sb !== null) return 1;
      if (sa !== null && sb === null) return -1;
      return a.capturedAt.localeCompare(b.capturedAt);
    })
    .map(shown);
  const views = decisions.map((decision) => toDecision(decision, actor));
  const current =
    views
      .filter((view) => view.state === 'awaiting_confirmation' || view.state === 'effective')
      .at(-1) ?? null;
  return {
    exam: toExam(exam, name),
    history: history.map(historyEntryView),
    occurrences: occurrenceRows.map((occurrence) => occurrenceView(occurrence, link)),
    reference: referenceRow ? shown(toPhoto(referenceRow)) : null,
    captures,
    threshold: seesScores ? threshold : null,
    claim: live ? toClaim(live, exam, actor) : null,
    alert:
      live && live.auditorId !== actor.id
        ? auditorAlert(live, await listClaimsOfExam(deps.db, exam.id))
        : null,
    decisions: views,
    current,
    releaseOutcome: outcomeFromScore(exam.score),
    twoPersonRule: deps.twoPersonRule,
  };
}

/**
 * The exam locked, waiting for audit, and held by the actor: the one door to
 * every judgement. Another auditor holding it gives the auditor alert; none
 * (expired or never taken) asks to open it again.
 */
async function heldExam(tx: Executor, deps: AuditDeps, actor: SessionUser, examId: string) {
  const exam = await lockExam(tx, actor.federativeUnit, examId);
  if (!exam) throw auditError('AUDIT_EXAM_NOT_FOUND');
  if (exam.status !== 'done' || exam.result !== 'in_analysis') {
    throw auditError('AUDIT_NOT_PENDING');
  }
  const now = clock(deps);
  await endExpiredClaims(tx, exam.id, now);
  const [live] = await findLiveClaims(tx, [exam.id], now);
  if (live && live.auditorId !== actor.id) {
    throw auditError('AUDIT_CLAIMED_BY_OTHER').withFields({
      alert: auditorAlert(live, await listClaimsOfExam(tx, exam.id)),
    });
  }
  if (!live) throw auditError('AUDIT_CLAIM_NOT_FOUND');
  return { exam, claim: live, now };
}

/** Writes the exam's final result from a decision: history, realtime, in the decision's transaction. */
async function applyResult(
  tx: Executor,
  exam: ExamRow,
  result: ExamResult,
  actor: SessionUser,
): Promise<void> {
  await updateExam(tx, exam.id, { result });
  await insertHistory(tx, {
    examId: exam.id,
    fromStatus: exam.status,
    toStatus: exam.status,
    fromResult: exam.result,
    toResult: result,
    source: 'user',
    actorId: actor.id,
  });
  await publishExamChanges(tx, [{ ...exam, result }]);
  // A disqualification or a reopened decision revokes the exam's certificate, in this transaction.
  await revokeForResult(tx, exam, result, actor.id, new Date());
}

/**
 * `POST api/Audit/{examId}/decision` (`send_result`): release the result
 * from the score, or disqualify with a reason and a note. The exam's result
 * (hence the report counters, which count the exams table) changes in the
 * same transaction as the decision and its activity event. Under the
 * two-person rule a disqualification, and an approval drawn for re-check,
 * wait for a second auditor instead.
 */
export async function decideExam(
  deps: AuditDeps,
  actor: SessionUser,
  examId: string,
  input: AuditDecisionInput,
): Promise<AuditDecisionResult> {
  return deps.db.transaction(async (tx) => {
    const { exam, claim, now } = await heldExam(tx, deps, actor, examId);
    if (await findOpenDecision(tx, exam.id)) throw auditError('AUDIT_AWAITING_CONFIRMATION');
    let outcome: AuditOutcome;
    let reasonId: string | null = null;
    let reasonCode: string | null = null;
    let note: string | null = null;
    if (input.action === 'release') {
      const released = outcomeFromScore(exam.score);
      if (!released) throw auditError('AUDIT_SCORE_MISSING');
      outcome = released;
    } else {
      const reason = await lockReason(tx, actor.federativeUnit, input.reasonId);
      if (!reason || !reason.isActive) throw auditError('AUDIT_REASON_INVALID');
      outcome = 'disqualified';
      reasonId = reason.id;
      reasonCode = reason.code;
      note = input.note;
    }
    const random = deps.random ?? (() => randomInt(0, 1_000_000) / 1_000_000);
    const confirmation =
      outcome === 'disqualified' && deps.twoPersonRule
        ? ('two_person' as const)
        : outcome === 'approved' && deps.recheckRate > 0 && random() < deps.recheckRate
          ? ('recheck' as const)
          : null;
    const state = confirmation ? 'awaiting_confirmation' : 'effective';
    await insertDecision(tx, {
      federativeUnit: actor.federativeUnit,
      examId: exam.id,
      auditorId: actor.id,
      outcome,
      reasonId,
      note,
      state,
      confirmation,
      decidedAt: now,
    });
    if (state === 'effective') await applyResult(tx, exam, outcome, actor);
    await endClaim(tx, claim.id, { at: now, reason: 'decided' });
    await insertActivity(tx, {
      type: 'send_result',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      target: `exam:${exam.schedulingId}`,
      payload: {
        examId: exam.id,
        schedulingId: exam.schedulingId,
        outcome,
        state,
        confirmation,
        reasonCode,
        note,
      },
    });
    return { state, outcome, result: state === 'effective' ? outcome : 'in_analysis' };
  });
}

/**
 * `POST api/Audit/{examId}/confirmation`: a second auditor (never the one
 * who decided) confirms the pending decision, which then takes effect, or
 * rejects it with a note, which sends the exam back to the queue.
 */
export async function confirmDecision(
  deps: AuditDeps,
  actor: SessionUser,
  examId: string,
  input: AuditConfirmationInput,
): Promise<AuditDecisionResult> {
  return deps.db.transaction(async (tx) => {
    const { exam, claim, now } = await heldExam(tx, deps, actor, examId);
    const pending = await findOpenDecision(tx, exam.id);
    if (pending?.state !== 'awaiting_confirmation') throw auditError('AUDIT_NO_PENDING_DECISION');
    if (pending.auditorId === actor.id) throw auditError('AUDIT_SAME_AUDITOR');
    const state = input.accept ? 'effective' : 'rejected';
    await updateDecision(tx, pending.id, {
      state,
      confirmedBy: actor.id,
      confirmedAt: now,
      confirmationNote: input.note || null,
    });
    if (input.accept) await applyResult(tx, exam, pending.outcome, actor);
    await endClaim(tx, claim.id, { at: now, reason: 'decided' });
    await insertActivity(tx, {
      type: 'send_result',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      target: `exam:${exam.schedulingId}`,
      payload: {
        examId: exam.id,
        schedulingId: exam.schedulingId,
        outcome: pending.outcome,
        state,
        confirmationOf: pending.id,
        note: input.note || null,
      },
    });
    return {
      state,
      outcome: pending.outcome,
      result: input.accept ? pending.outcome : 'in_analysis',
    };
  });
}

/**
 * `POST api/Audit/{examId}/reopen` (ADMIN): the decision in effect is
 * reopened with a reason and the exam goes back to the audit queue. The
 * decision row stays (state `reopened`, who, when, why): the history is
 * whole. This is the one way a final result changes.
 */
export async function reopenDecision(
  deps: AuditDeps,
  actor: SessionUser,
  examId: string,
  input: AuditReopenInput,
): Promise<AuditDecisionResult> {
  return deps.db.transaction(async (tx) => {
    const exam = await lockExam(tx, actor.federativeUnit, examId);
    if (!exam) throw auditError('AUDIT_EXAM_NOT_FOUND');
    const decision = await findOpenDecision(tx, exam.id);
    if (decision?.state !== 'effective' || exam.result !== decision.outcome) {
      throw auditError('AUDIT_NOT_DECIDED');
    }
    const now = clock(deps);
    await updateDecision(tx, decision.id, {
      state: 'reopened',
      reopenedBy: actor.id,
      reopenedAt: now,
      reopenReason: input.reason,
    });
    await applyResult(tx, exam, 'in_analysis', actor);
    await insertActivity(tx, {
      type: 'reopen_audit',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: {
        examId: exam.id,
        schedulingId: exam.schedulingId,
        decisionId: decision.id,
        before: decision.outcome,
        reason: input.reason,
      },
    });
    return { state: 'reopened', outcome: decision.outcome, result: 'in_analysis' };
  });
}

/**
 * `PUT api/Audit/{examId}/photos/{photoId}/mark` (photo audit): the auditor
 * holding the exam marks a capture compatible or incompatible with the
 * reference; the mark names them in the exam's audit. Each change is in the
 * activity log with what it said before.
 */
export async function markPhoto(
  deps: AuditDeps,
  actor: SessionUser,
  params: { examId: string; photoId: string },
  input: PhotoMarkInput,
): Promise<{ verdict: PhotoVerdict; auditorName: string; markedAt: string }> {
  return deps.db.transaction(async (tx) => {
    const { exam, now } = await heldExam(tx, deps, actor, params.examId);
    const capture = await findCapture(tx, exam.id, params.photoId);
    if (!capture) throw auditError('AUDIT_PHOTO_NOT_FOUND');
    const { before } = await upsertMark(tx, {
      federativeUnit: actor.federativeUnit,
      examId: exam.id,
      photoId: capture.id,
      auditorId: actor.id,
      verdict: input.verdict,
      markedAt: now,
    });
    await insertActivity(tx, {
      type: 'photo_mark',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: {
        examId: exam.id,
        schedulingId: exam.schedulingId,
        photoId: capture.id,
        verdict: input.verdict,
        before,
      },
    });
    return { verdict: input.verdict, auditorName: actor.name, markedAt: now.toISOString() };
  });
}
