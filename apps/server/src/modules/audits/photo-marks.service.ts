/** The photo audit's marks on an exam's captures. */
import type { PhotoMarkInput, PhotoVerdict } from '@exame/shared';
import type { SessionUser } from '../../lib/actors';
import { insertActivity } from '../activity/activity.service';
import { findCapture } from '../exams/exam-photos.service';
import { upsertMark } from './audit-photos.repository';
import { type AuditDeps, auditError } from './audit-claims.service';
import { heldExam } from './audit-decisions.service';

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
    const capture = await findCapture(tx, exam.id, { id: params.photoId });
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
