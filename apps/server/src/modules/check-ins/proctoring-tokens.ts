/**
 * Examiner 2's confirmation (`proctoringToken`), a token for a later step:
 * `api/Auth/viewer-checkin` checks examiner 2's password and hands examiner
 * 1 a random token whose hash the server keeps with what it is for: the
 * examiner 1 it was given to (in that session: after a logout it names
 * nobody), examiner 2, the post and, when asked for an
 * open record (adding to it, receiving it by transfer), that record. It names
 * examiner 2 in the face check and the challenge before the admission, and
 * is used once by the admission (in its transaction, for that record and
 * post) or not at all; after PROCTORING_TOKEN_TTL_MS it names nobody.
 */
import { CHECK_IN_ERRORS, PROCTORING_TOKEN_TTL_MS } from '@exame/shared';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/crypto';
import { findLocalByIdentifier } from '../scheduling-locals/scheduling-locals.service';
import { findRecordFor } from './check-ins.repository';
import {
  consumeProctoringToken,
  deleteExpiredProctoringTokens,
  findLiveProctoringToken,
  insertProctoringToken,
  type ProctoringTokenRow,
} from './proctoring-tokens.repository';

const checkInError = (code: keyof typeof CHECK_IN_ERRORS) => AppError.from(CHECK_IN_ERRORS, code);
const invalid = () => checkInError('PROCTORING_TOKEN_INVALID');

/** Names examiner 1's session without keeping its key (a hash of the session's token hash). */
const sessionOf = (actor: SessionUser) => hashToken(actor.tokenHash);

/** What a confirmation is for: the post, and the open record (null: opening a new one there). */
export type ProctoringTarget = { schedulingLocal: string; checkInId: string | null };

/**
 * What examiner 1 asks a confirmation for, checked before the password is:
 * an active post of the unit; or an open record of the unit that the actor
 * opened or is an examiner of (its post is the record's).
 */
export async function targetOf(
  db: Executor,
  actor: SessionUser,
  input: { schedulingLocal?: string; checkInId?: string },
): Promise<ProctoringTarget> {
  if (input.checkInId) {
    const found = await findRecordFor(db, actor.federativeUnit, { id: input.checkInId }, actor.id);
    if (!found?.actorInRecord) throw checkInError('CHECKIN_NOT_FOUND');
    const record = found.record;
    if (record.status !== 'open') throw checkInError('CHECKIN_CLOSED');
    if (input.schedulingLocal && input.schedulingLocal !== record.schedulingLocal) {
      throw checkInError('CHECKIN_NOT_FOUND');
    }
    return { schedulingLocal: record.schedulingLocal, checkInId: record.id };
  }
  const identifier = input.schedulingLocal?.trim();
  if (!identifier) throw checkInError('CHECKIN_LOCAL_REQUIRED');
  const post = await findLocalByIdentifier(db, actor.federativeUnit, identifier);
  if (!post || !post.isActive) throw checkInError('CHECKIN_LOCAL_NOT_FOUND');
  return { schedulingLocal: post.identifier, checkInId: null };
}

/** A new confirmation of `personId` for `target`, given to `actor`; the unit's expired ones go. */
export async function issueProctoringToken(
  db: Executor,
  actor: SessionUser,
  personId: string,
  target: ProctoringTarget,
): Promise<{ token: string; expiresAt: Date }> {
  const now = new Date();
  await deleteExpiredProctoringTokens(db, actor.federativeUnit, now);
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + PROCTORING_TOKEN_TTL_MS);
  await insertProctoringToken(db, {
    tokenHash: hashToken(token),
    federativeUnit: actor.federativeUnit,
    issuedTo: actor.id,
    issuedSession: sessionOf(actor),
    personId,
    schedulingLocal: target.schedulingLocal,
    checkInId: target.checkInId,
    expiresAt,
  });
  return { token, expiresAt };
}

/**
 * The live confirmation `token` names, when it was given to `actor` and
 * (as far as `expected` says) is for that post and that record; otherwise
 * PROCTORING_TOKEN_INVALID. Nothing is used here (see useProctoringToken).
 */
export async function resolveProctoringToken(
  db: Executor,
  actor: SessionUser,
  token: string,
  expected: Partial<ProctoringTarget> = {},
): Promise<ProctoringTokenRow> {
  const row = await findLiveProctoringToken(db, hashToken(token), new Date());
  if (
    !row ||
    row.issuedTo !== actor.id ||
    row.issuedSession !== sessionOf(actor) ||
    row.federativeUnit !== actor.federativeUnit ||
    (expected.schedulingLocal !== undefined && row.schedulingLocal !== expected.schedulingLocal) ||
    (expected.checkInId !== undefined && row.checkInId !== expected.checkInId)
  ) {
    throw invalid();
  }
  return row;
}

/**
 * In the admission's transaction: the confirmation is used by the admission
 * of `personId` to `record`, once; already used, expired, made for another
 * post or record (or for opening one, when this adds to an existing one):
 * PROCTORING_TOKEN_INVALID, and the admission is rolled back.
 */
export async function useProctoringToken(
  tx: Executor,
  actor: SessionUser,
  use: {
    tokenId: string;
    personId: string;
    issuedFor: string | null;
    record: { id: string; schedulingLocal: string };
  },
): Promise<void> {
  if (use.issuedFor !== null && use.issuedFor !== use.record.id) throw invalid();
  const used = await consumeProctoringToken(tx, {
    id: use.tokenId,
    issuedTo: actor.id,
    personId: use.personId,
    schedulingLocal: use.record.schedulingLocal,
    issuedFor: use.issuedFor,
    record: use.record.id,
    now: new Date(),
  });
  if (!used) throw invalid();
}
