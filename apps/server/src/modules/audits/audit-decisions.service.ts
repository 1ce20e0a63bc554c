/**
 * The auditors' decisions (`send_result`): a decision on the exam the
 * auditor holds, its confirmation by a second auditor where the rule asks
 * for one, and a reopening. The decision, the exam's result, its history,
 * its activity event and its notice share one transaction.
 */
import {
  outcomeFromScore,
  type AuditConfirmationInput,
  type AuditDecisionInput,
  type AuditDecisionResult,
  type AuditOutcome,
  type AuditReopenInput,
  type ExamResult,
} from '@exame/shared';
import { randomInt } from 'node:crypto';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { insertActivity } from '../activity/activity.service';
import { lockReason } from '../disqualification-reasons/disqualification-reasons.service';
import { publishExamChanges, writeExamChange } from '../exams/exam-changes.service';
import {
  endClaim,
  endExpiredClaims,
  findLiveClaims,
  listClaimsOfExam,
  lockExam,
  type ExamRow,
} from './audit-claims.repository';
import { findOpenDecision, insertDecision, updateDecision } from './audit-decisions.repository';
import { type AuditDeps, auditError, clock, auditorAlert } from './audit-claims.service';

/**
 * A decision or its confirmation ends the auditor's claim and is recorded as
 * `send_result` with the exam's ids and what was decided.
 */
async function closeDecided(
  tx: Executor,
  actor: SessionUser,
  exam: { id: string; schedulingId: string },
  claimId: string,
  now: Date,
  decided: Record<string, unknown>,
): Promise<void> {
  await endClaim(tx, claimId, { at: now, reason: 'decided' });
  await insertActivity(tx, {
    type: 'send_result',
    actorId: actor.id,
    federativeUnit: actor.federativeUnit,
    target: `exam:${exam.schedulingId}`,
    payload: { examId: exam.id, schedulingId: exam.schedulingId, ...decided },
  });
}

/**
 * The exam locked, waiting for audit, and held by the actor: the one door to
 * every judgement. Another auditor holding it gives the auditor alert; none
 * (expired or never taken) asks to open it again.
 */
export async function heldExam(tx: Executor, deps: AuditDeps, actor: SessionUser, examId: string) {
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
  deps: Pick<AuditDeps, 'resultChanged'>,
  exam: ExamRow,
  result: ExamResult,
  actor: SessionUser,
): Promise<void> {
  const changed = await writeExamChange(
    tx,
    exam,
    { result },
    { source: 'user', actorId: actor.id },
  );
  await publishExamChanges(tx, [changed]);
  // A disqualification or a reopened decision revokes the exam's certificate, in this transaction.
  await deps.resultChanged(tx, exam, result, actor.id, new Date());
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
    if (state === 'effective') await applyResult(tx, deps, exam, outcome, actor);
    await closeDecided(tx, actor, exam, claim.id, now, {
      outcome,
      state,
      confirmation,
      reasonCode,
      note,
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
    if (input.accept) await applyResult(tx, deps, exam, pending.outcome, actor);
    await closeDecided(tx, actor, exam, claim.id, now, {
      outcome: pending.outcome,
      state,
      confirmationOf: pending.id,
      note: input.note || null,
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
    const reopened = await reopenEffectiveDecision(tx, deps, actor, exam, input.reason);
    if (!reopened) throw auditError('AUDIT_NOT_DECIDED');
    return { state: 'reopened', outcome: reopened, result: 'in_analysis' };
  });
}

/**
 * The reopening itself, in the caller's transaction on the exam's locked
 * row: the decision in effect becomes `reopened` (who, when, why), the
 * result goes back to analysis and `reopen_audit` is logged. Also how a case
 * of possible fraud sends a decided exam back to the queue (modules/fraud).
 * Returns the outcome reopened, or null when no decision is in effect.
 */
export async function reopenEffectiveDecision(
  tx: Executor,
  deps: Pick<AuditDeps, 'resultChanged' | 'now'>,
  actor: SessionUser,
  exam: ExamRow,
  reason: string,
): Promise<AuditOutcome | null> {
  const decision = await findOpenDecision(tx, exam.id);
  if (decision?.state !== 'effective' || exam.result !== decision.outcome) return null;
  const now = clock(deps);
  await updateDecision(tx, decision.id, {
    state: 'reopened',
    reopenedBy: actor.id,
    reopenedAt: now,
    reopenReason: reason,
  });
  await applyResult(tx, deps, exam, 'in_analysis', actor);
  await insertActivity(tx, {
    type: 'reopen_audit',
    actorId: actor.id,
    federativeUnit: actor.federativeUnit,
    payload: {
      examId: exam.id,
      schedulingId: exam.schedulingId,
      decisionId: decision.id,
      before: decision.outcome,
      reason,
    },
  });
  return decision.outcome;
}
