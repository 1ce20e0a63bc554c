/**
 * The audit page of an exam (`GET api/Audit/{examId}`): the exam, its
 * photos with what the face engine read, the claims, the decisions and the
 * timeline, each decision as the actor may see it.
 */
import {
  FACE_SCORE_ROLES,
  outcomeFromScore,
  similarityLevel,
  type AuditDecision,
  type AuditDetail,
  type AuditPhoto,
  type Role,
} from '@exame/shared';
import type { SessionUser } from '../../lib/actors';
import { localName, occurrencesOf } from '../exams/exams.service';
import { examPhotoLinker, photoLink } from '../exams/exam-photo-links.service';
import { historyEntryView, occurrenceView, toExam } from '../exams/exams.service';
import { findLiveClaims, findUnitExam, listClaimsOfExam } from './audit-claims.repository';
import { listAuditPhotos, type AuditPhotoRow } from './audit-photos.repository';
import { listDecisionsOf, type DecisionView } from './audit-decisions.repository';
import { auditHistoryOf, fraudCasesSentWith } from './audit-history.repository';
import { currentDescriptor, currentStatus, readExamFaces } from './photo-faces.service';
import { type AuditDeps, auditError, clock, toClaim, auditorAlert } from './audit-claims.service';

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
  const [history, occurrenceRows, photos, name, [live], decisions, fraudCases] = await Promise.all([
    auditHistoryOf(deps.db, exam.id),
    occurrencesOf(deps.db, exam.id),
    listAuditPhotos(deps.db, exam.id),
    localName(deps.db, actor.federativeUnit, exam.schedulingLocal),
    findLiveClaims(deps.db, [exam.id], now),
    listDecisionsOf(deps.db, exam.id),
    fraudCasesSentWith(deps.db, exam.id),
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
    // Who made each change: the auditor of a decision, where the timeline said only "usuário".
    history: history.map((entry) => ({ ...historyEntryView(entry), actorName: entry.actorName })),
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
    fraudCases,
  };
}
