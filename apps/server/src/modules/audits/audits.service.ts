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
  maskCpf,
  pageReply,
  resolveOpenPeriod,
  type AuditClaim,
  type Auditor,
  type AuditorAlert,
  type AuditQueueItem,
  type Page,
} from '@exame/shared';
import type { Database } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { insertActivity } from '../activity/activity.repository';
import {
  endClaim,
  endExpiredClaims,
  extendClaim,
  findLiveClaims,
  insertClaim,
  listClaimsOfExam,
  listLiveClaimsOf,
  listQueue,
  lockExam,
  type ClaimWithAuditor,
  type ExamRow,
} from './audits.repository';

export type AuditDeps = { db: Database; claimMs: number; now?: () => Date };

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
  },
): Promise<Page<AuditQueueItem>> {
  const period = resolveOpenPeriod(query.startDate, query.endDate);
  if (!period.ok) throw AppError.badRequest(period.code, period.message);
  const now = clock(deps);
  const found = await listQueue(deps.db, actor.federativeUnit, {
    ...query,
    start: period.start,
    endExclusive: period.endExclusive,
    now,
  });
  const claims = await findLiveClaims(
    deps.db,
    found.items.map((exam) => exam.id),
    now,
  );
  return pageReply(query, {
    total: found.total,
    items: found.items.map((exam) => {
      const claim = claims.find((entry) => entry.examId === exam.id);
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

/** `GET api/Audit/mine` (my audit): the exams the auditor holds now, newest first. */
export async function myClaims(deps: AuditDeps, actor: SessionUser): Promise<AuditClaim[]> {
  const claims = await listLiveClaimsOf(deps.db, actor.federativeUnit, actor.id, clock(deps));
  return claims.map((claim) => toClaim(claim, claim.exam, actor));
}
