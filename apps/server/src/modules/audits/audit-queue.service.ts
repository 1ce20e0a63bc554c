/**
 * `GET api/Audit/queue`: the unit's exams waiting for an auditor, oldest
 * first (or the least like their reference first), with who holds each one,
 * the decision waiting for a second auditor, the post's name, and the lowest
 * face similarity or, when there is none, why (in the audit page's words).
 */
import {
  FACE_SCORE_ROLES,
  maskCpf,
  pageReply,
  resolveOpenPeriod,
  similarityLevel,
  type AuditQueueItem,
  type Page,
  type QueueFaceState,
  type Role,
} from '@exame/shared';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { faceSummariesOf, listQueue, type FaceSummary } from './audit-queue.repository';
import { findLiveClaims } from './audit-claims.repository';
import { findAwaitingDecisions } from './audit-decisions.repository';
import { toClaim, type AuditDeps } from './audit-claims.service';
import { examTotalFromCounters } from '../exams/exams.service';

/**
 * Why an exam has no lowest similarity, as its page shows it: no capture, no
 * reference photo, photos still to read, no face in the captures, or none in
 * the reference (so nothing to compare with).
 */
export function faceStateOf(
  lowest: number | null,
  summary: FaceSummary | undefined,
): QueueFaceState {
  if (lowest !== null) return 'compared';
  if (!summary || summary.captures === 0) return 'no_captures';
  if (summary.reference === null) return 'no_reference';
  if (summary.reference === 'pending' || summary.capturesUnread > 0) return 'pending';
  if (summary.capturesFound === 0) return 'no_face';
  if (summary.reference === 'no_face') return 'no_face_reference';
  // Every face read, the lowest not stored yet: it is computed with the next reading.
  return 'pending';
}

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
  const now = deps.now ? deps.now() : new Date();
  const faceVersion = deps.face.descriptorVersion;
  // Waiting for an auditor is a status and a result of the exam: without the
  // filters the counters do not hold (occurrences, claims, the stage), the
  // total is theirs, exact at any size (read only when the page does not tell it).
  const countTotal =
    query.withOccurrences || query.onlyFree || (query.stage ?? 'all') !== 'all'
      ? undefined
      : () =>
          examTotalFromCounters(deps.db, actor.federativeUnit, {
            start: period.start,
            endExclusive: period.endExclusive,
            statuses: ['done'],
            results: ['in_analysis'],
            posts: query.schedulingLocal
              ? { identifiers: [query.schedulingLocal], rule: 'first-part' }
              : undefined,
          });
  const found = await listQueue(deps.db, actor.federativeUnit, {
    ...query,
    start: period.start,
    endExclusive: period.endExclusive,
    now,
    faceVersion,
    countTotal,
  });
  const ids = found.items.map((exam) => exam.id);
  const [claims, awaiting, faces] = await Promise.all([
    findLiveClaims(deps.db, ids, now),
    findAwaitingDecisions(deps.db, ids),
    faceSummariesOf(deps.db, ids, faceVersion),
  ]);
  const seesScores = (FACE_SCORE_ROLES as readonly Role[]).includes(actor.role);
  const threshold = deps.face.thresholdFor(actor.federativeUnit);
  return pageReply(query, {
    total: found.total,
    totalCapped: found.totalCapped,
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
        localName: exam.localName,
        schedulingDate: exam.schedulingDate.toISOString(),
        finishedAt: exam.finishedAt?.toISOString() ?? null,
        occurrences: exam.occurrenceCount,
        photos: exam.photoCount,
        faceState: faceStateOf(lowest, faces.get(exam.id)),
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
