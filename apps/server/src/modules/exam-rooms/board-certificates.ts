/**
 * Which finished exams of a room's board the caller may issue the
 * certificate of, so the board offers the action only where it will be
 * accepted. The rule is the certificate's own (certificates.service, which
 * decides): ADMIN, every exam with a released result; an examiner, the exams
 * whose room they held while the exam ran (exams.service examWindow and
 * custodyOf; here the room's custody is read once, by findCustody, for the
 * whole board); AUDITOR, none (auditors read certificates, never issue them).
 */
import { EXAMINER_ROLES } from '@exame/shared';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { examWindow, findCustody } from '../exams/exams.service';
import type { ExamRow, RoomWithPost } from './exam-rooms.repository';

export async function certificateExamIds(
  db: Executor,
  actor: SessionUser,
  room: Pick<RoomWithPost, 'postIdentifier' | 'code'>,
  rows: ExamRow[],
): Promise<string[]> {
  const released = rows.filter(
    (row) => row.status === 'done' && (row.result === 'approved' || row.result === 'reproved'),
  );
  if (actor.role === 'ADMIN') return released.map((row) => row.id);
  if (!EXAMINER_ROLES.includes(actor.role) || released.length === 0) return [];
  const now = new Date();
  const windows = released.map((row) => ({ id: row.id, ...examWindow(row, now) }));
  const custody = await findCustody(db, actor.federativeUnit, {
    postIdentifier: room.postIdentifier,
    roomCode: room.code,
    from: new Date(Math.min(...windows.map((window) => window.from.getTime()))),
    to: new Date(Math.max(...windows.map((window) => window.to.getTime()))),
  });
  const mine = custody.filter((entry) => entry.userId === actor.id);
  return windows
    .filter((window) =>
      mine.some((entry) => entry.checkInDate <= window.to && (entry.leftAt ?? now) >= window.from),
    )
    .map((window) => window.id);
}
