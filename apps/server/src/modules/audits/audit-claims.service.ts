/**
 * The auditors' claims (`load_audit`), and what each auditor holds and
 * decided (my audit, my photo audit).
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
  maskCpf,
  type AuditClaim,
  type Auditor,
  type MyAudit,
  type MyPhotoAudit,
  type AuditorAlert,
  type ExamResult,
} from '@exame/shared';
import type { FaceService } from '../../biometrics/face-engine';
import type { Database, Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import { insertActivity } from '../activity/activity.service';
import {
  endClaim,
  endExpiredClaims,
  extendClaim,
  findLiveClaims,
  insertClaim,
  listClaimsOfExam,
  listLiveClaimsOf,
  lockExam,
  type ClaimWithAuditor,
  type ExamRow,
} from './audit-claims.repository';
import { listPhotoAuditsBy } from './audit-photos.repository';
import { listDecisionsBy } from './audit-decisions.repository';

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
  /** After an exam's photos were read on opening it: the fraud search (photo-faces.service.ts). */
  afterExamRead?: (examId: string) => Promise<unknown>;
  /**
   * Runs in the decision's transaction when an exam's result changes: app.ts
   * passes the certificates' revocation (certificates.service
   * revokeForResult; the certificates module sits above this one).
   */
  resultChanged: (
    tx: Executor,
    exam: Pick<ExamRow, 'id' | 'federativeUnit' | 'schedulingId'>,
    result: ExamResult,
    actorId: string,
    at: Date,
  ) => Promise<void>;
  now?: () => Date;
};

export const auditError = (code: keyof typeof AUDIT_ERRORS) => AppError.from(AUDIT_ERRORS, code);
export const clock = (deps: Pick<AuditDeps, 'now'>) => (deps.now ? deps.now() : new Date());

export function toClaim(
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

// `GET api/Audit/queue`: audit-queue.service.ts.

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
