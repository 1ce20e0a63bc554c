/**
 * Reading check-in records: a record as the API shows it (CPFs masked,
 * captures by signed address, the history in words), one record, the open
 * record of an examiner at a post, the unit's records, and the exams of a
 * record's post. Examiners see the records they are (or were) in; ADMIN and
 * AUDITOR see every record of the unit; another unit's record is not found.
 */
import {
  ADMITTED_BY,
  cappedTotal,
  roundedEstimate,
  dayInZone,
  maskCpf,
  pageReply,
  resolveOpenPeriod,
  resolvePeriod,
  type CheckInExam,
  type CheckInRecord,
  type CheckInSummary,
  type Page,
} from '@exame/shared';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { faceUrl } from './check-in-face-images';
import {
  findRecordFor,
  findRecordWithDetails,
  listExamsOfPost,
  type CheckInWithNames,
  type RecordFor,
  type WhichRecord,
} from './check-ins.repository';
import type { RecordDetails } from './check-in-details.repository';
import { searchCheckIns, type CheckInSearch } from './check-in-search.repository';
import { checkInError, SEES_EVERY_RECORD, type CheckInDeps } from './check-in-rules';

/**
 * A record as the API shows it: CPFs masked, captures by signed address, the
 * history in words (its examiners and history read with it, `findRecordWithDetails`).
 */
function toRecord(
  deps: CheckInDeps,
  actor: SessionUser,
  record: CheckInWithNames,
  { examiners, events }: RecordDetails,
): CheckInRecord {
  return {
    id: record.id,
    federativeUnit: record.federativeUnit,
    schedulingLocal: record.schedulingLocal,
    schedulingLocalDescription: record.schedulingLocalDescription,
    examRoom: record.examRoom,
    status: record.status,
    checkInDate: record.openedAt.toISOString(),
    checkOutDate: record.closedAt?.toISOString() ?? null,
    openedBy: { id: record.openedBy, name: record.openedByName },
    deviceId: record.deviceId,
    closeReason: record.closeReason,
    faceValidationRequired: record.faceValidationRequired,
    viewers: examiners.map((examiner) => ({
      id: examiner.id,
      userId: examiner.userId,
      name: examiner.name,
      cpf: maskCpf(examiner.cpf),
      faceUrl: faceUrl(deps, examiner.faceKey, actor.id),
      checkInDate: examiner.checkInDate.toISOString(),
      checkOutValidated: examiner.checkOutValidated,
      checkOutDate: examiner.checkOutDate?.toISOString() ?? null,
      checkOutFaceUrl: faceUrl(deps, examiner.checkOutFaceKey, actor.id),
      removedAt: examiner.removedAt?.toISOString() ?? null,
      admittedBy: examiner.admittedBy ?? null,
    })),
    history: events.map((event) => ({
      type: event.type,
      at: event.at.toISOString(),
      actorName: event.actorName,
      subject: event.subject,
      reason: event.reason,
      transferredFrom:
        event.type === 'examiner_transfer' && typeof event.details.from === 'string'
          ? event.details.from
          : null,
      admittedBy: ADMITTED_BY.find((way) => way === event.details.admittedBy) ?? null,
    })),
  };
}

/**
 * The record found, when the actor may see it: any of the unit for ADMIN and
 * AUDITOR, their own for examiners.
 */
function visibleTo<T extends RecordFor>(actor: SessionUser, found: T | undefined): T {
  if (found && (SEES_EVERY_RECORD.includes(actor.role) || found.actorInRecord)) return found;
  throw checkInError('CHECKIN_NOT_FOUND');
}

/** A record the actor may see (`visibleTo`). */
export async function visibleRecord(
  deps: CheckInDeps,
  actor: SessionUser,
  which: WhichRecord,
): Promise<CheckInWithNames> {
  return visibleTo(actor, await findRecordFor(deps.db, actor.federativeUnit, which, actor.id))
    .record;
}

/** A record the actor may see, as the API shows it: one statement reads it all. */
async function shownRecord(
  deps: CheckInDeps,
  actor: SessionUser,
  which: WhichRecord,
): Promise<CheckInRecord> {
  const found = visibleTo(
    actor,
    await findRecordWithDetails(deps.db, actor.federativeUnit, which, actor.id),
  );
  return toRecord(deps, actor, found.record, found.details);
}

/** `GET findCheckInById/{id}`. */
export async function getCheckIn(
  deps: CheckInDeps,
  actor: SessionUser,
  input: { id: string },
): Promise<CheckInRecord> {
  return shownRecord(deps, actor, { id: input.id });
}

/** `GET findCheckIn?viewerCpf&schedulingLocal`: the open record of that examiner at that post. */
export async function findOpenCheckIn(
  deps: CheckInDeps,
  actor: SessionUser,
  input: { viewerCpf: string; schedulingLocal: string },
): Promise<CheckInRecord> {
  return shownRecord(deps, actor, { examinerCpf: input.viewerCpf, post: input.schedulingLocal });
}

/** `GET searchCheckIn`: the records of the unit (ADMIN and AUDITOR), newest first. */
export async function searchRecords(
  deps: CheckInDeps,
  actor: SessionUser,
  query: Omit<CheckInSearch, 'start' | 'endExclusive'> & { startDate?: string; endDate?: string },
): Promise<Page<CheckInSummary>> {
  const period = resolveOpenPeriod(query.startDate, query.endDate);
  if (!period.ok) throw AppError.badRequest(period.code, period.message);
  const found = await searchCheckIns(deps.db, actor.federativeUnit, {
    ...query,
    start: period.start,
    endExclusive: period.endExclusive,
  });
  return pageReply(query, {
    ...(found.estimated
      ? { total: roundedEstimate(found.counted), totalEstimated: true }
      : cappedTotal(found.counted)),
    items: found.items.map((record) => ({
      id: record.id,
      schedulingLocal: record.schedulingLocal,
      schedulingLocalDescription: record.schedulingLocalDescription,
      examRoomName: record.examRoom?.name ?? null,
      status: record.status,
      checkInDate: record.openedAt.toISOString(),
      checkOutDate: record.closedAt?.toISOString() ?? null,
      viewers: record.examiners.map((examiner) => ({
        name: examiner.name,
        cpf: maskCpf(examiner.cpf),
        checkOutDate: examiner.checkOutDate?.toISOString() ?? null,
        checkOutValidated: examiner.checkOutValidated,
      })),
    })),
  });
}

/** `GET exams?checkInId`: the exams of the record's post on the day it was opened (São Paulo). */
export async function listRecordExams(
  deps: CheckInDeps,
  actor: SessionUser,
  query: { checkInId: string; page: number; pageSize: number },
): Promise<Page<CheckInExam>> {
  const record = await visibleRecord(deps, actor, { id: query.checkInId });
  const day = dayInZone(record.openedAt);
  const period = resolvePeriod(day, day);
  if (!period.ok) throw AppError.badRequest(period.code, period.message);
  const found = await listExamsOfPost(
    deps.db,
    actor.federativeUnit,
    { identifier: record.schedulingLocal, start: period.start, endExclusive: period.endExclusive },
    query,
  );
  return pageReply(query, {
    total: found.total,
    items: found.items.map((exam) => ({
      id: exam.id,
      cpf: maskCpf(exam.candidateCpf),
      schedulingId: exam.schedulingId,
      candidateName: exam.candidateName,
      schedulingDate: exam.schedulingDate.toISOString(),
      status: exam.status,
      result: exam.result,
      room: exam.room,
      station: exam.station,
    })),
  });
}

/** A record of the actor's unit as the API shows it (the caller decides who may see it). */
export async function recordById(
  deps: CheckInDeps,
  actor: SessionUser,
  id: string,
): Promise<CheckInRecord | undefined> {
  const found = await findRecordWithDetails(deps.db, actor.federativeUnit, { id });
  return found && toRecord(deps, actor, found.record, found.details);
}

/** The record as it stands after a change, as the API shows it. */
export async function recordAfterChange(deps: CheckInDeps, actor: SessionUser, id: string) {
  const record = await recordById(deps, actor, id);
  if (!record) throw checkInError('CHECKIN_NOT_FOUND');
  return record;
}
