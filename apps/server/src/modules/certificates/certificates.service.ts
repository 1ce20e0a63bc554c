/**
 * Certificates of finished exams.
 *
 * Tenancy: issuing and reading are scoped by the actor's unit (or the
 * integration key's); an exam of another unit is not found. Within the unit,
 * an examiner issues and reads only the certificates of exams whose room they
 * held while the exam ran (the custody of the room, a query); ADMIN (and, to
 * read, AUDITOR) any. The public check
 * needs the code only (80 random bits; rate-limited per address), and answers
 * what a third party may see: never the whole CPF, the RENACH or staff names.
 *
 * Issue is idempotent: the exam's valid certificate is returned when there is
 * one (two issues at once leave one, by the unique index). Revocation happens
 * in the audit's transaction (revokeForResult) when the exam is disqualified
 * or its decision reopened.
 */
import { randomBytes } from 'node:crypto';
import {
  EXAMINER_ROLES,
  CERTIFICATE_CODE_ALPHABET,
  CERTIFICATE_CODE_LENGTH,
  CERTIFICATE_ERRORS,
  formatCertificateCode,
  maskCpf,
  postAndRoomOf,
  type Certificate,
  type CertificateCheck,
  type CertificateContent,
} from '@exame/shared';
import QRCode from 'qrcode';
import type { Database, Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { RateLimiter } from '../../db/rate-limit';
import { insertActivity } from '../activity/activity.service';
import { lockExam } from '../audits/audits.service';
import { listDecisionsOf } from '../audits/audits.service';
import { findExam, localName, type ExamRow } from '../exams/exams.service';
import { custodyOf, findRoomByLocal, heldExamRoom } from '../exams/exams.service';
import { findFederativeUnit } from '../federative-units/federative-units.service';
import {
  findCertificateByCode,
  findLatestCertificate,
  findUnitCertificate,
  findValidCertificate,
  insertCertificate,
  revokeCertificates,
  type CertificateRow,
} from './certificates.repository';
import { renderCertificatePdf } from './certificate-pdf';

export type CertificateDeps = { db: Database; publicAppUrl: string; limiter: RateLimiter };

const certificateError = (code: keyof typeof CERTIFICATE_ERRORS) =>
  AppError.from(CERTIFICATE_ERRORS, code);

/** 16 characters of the Crockford alphabet from 80 random bits. */
export function newCertificateCode(): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let i = 0; i < CERTIFICATE_CODE_LENGTH; i++) {
    code = CERTIFICATE_CODE_ALPHABET[Number(bits & 31n)] + code;
    bits >>= 5n;
  }
  return code;
}

/**
 * The public check's address: the general page, or the federal-district
 * variant (`/certificate/{schedulingId}`) for DF's certificates.
 */
export function verifyUrlOf(
  publicAppUrl: string,
  row: Pick<CertificateRow, 'code' | 'federativeUnit'>,
  schedulingId: string,
): string {
  const code = encodeURIComponent(formatCertificateCode(row.code));
  return row.federativeUnit === 'DF'
    ? `${publicAppUrl}/certificate/${encodeURIComponent(schedulingId)}?code=${code}`
    : `${publicAppUrl}/certificate?code=${code}`;
}

const contentOf = (row: CertificateRow) => row.content as CertificateContent;

async function toCertificate(deps: CertificateDeps, row: CertificateRow): Promise<Certificate> {
  const content = contentOf(row);
  const verifyUrl = verifyUrlOf(deps.publicAppUrl, row, content.schedulingId);
  return {
    id: row.id,
    code: formatCertificateCode(row.code),
    status: row.revokedAt ? 'revoked' : 'valid',
    issuedAt: row.issuedAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedReason: row.revokedReason,
    verifyUrl,
    content,
    qrDataUrl: await QRCode.toDataURL(verifyUrl, {
      errorCorrectionLevel: 'M',
      margin: 2,
      width: 240,
    }),
  };
}

/** What the certificate states, from the exam as it is now. */
async function contentFor(db: Executor, exam: ExamRow): Promise<CertificateContent> {
  const unit = exam.federativeUnit;
  const place = postAndRoomOf(unit, exam.schedulingLocal);
  // One query at a time: `db` is the issue's transaction, a single connection.
  const unitRow = await findFederativeUnit(db, unit);
  const postName = await localName(db, unit, exam.schedulingLocal);
  const room = exam.schedulingLocal
    ? await findRoomByLocal(db, unit, exam.schedulingLocal)
    : undefined;
  const custody = await custodyOf(db, unit, exam);
  const decisions = await listDecisionsOf(db, exam.id);
  const roomName = room?.name ?? exam.room ?? null;
  const decision = decisions.filter((entry) => entry.state === 'effective').at(-1);
  return {
    schedulingId: exam.schedulingId,
    candidateName: exam.candidateName,
    candidateCpf: maskCpf(exam.candidateCpf),
    candidateRenach: exam.candidateRenach,
    federativeUnit: unit,
    unitName: unitRow?.name ?? unit,
    postName: postName ?? place?.post ?? null,
    // Spec 5: without the post and the room, the room local is missing.
    roomLocal: place && roomName ? `${postName ?? place.post} · ${roomName}` : null,
    room: roomName,
    station: exam.station,
    examDate: (exam.startedAt ?? exam.schedulingDate).toISOString(),
    result: exam.result === 'approved' ? 'approved' : 'reproved',
    score: exam.score,
    examiners: [...new Set(custody.map((entry) => entry.name))],
    auditor: decision
      ? decision.confirmerName
        ? `${decision.auditorName} (confirmado por ${decision.confirmerName})`
        : decision.auditorName
      : null,
  };
}

/**
 * The certificate carries the RENACH, the score and the auditor: an examiner
 * gets it only for an exam whose room they held while it ran (ADMIN and
 * AUDITOR for any exam of the unit); otherwise CERTIFICATE_NOT_CUSTODIAN.
 */
async function checkCustodian(db: Executor, actor: SessionUser, exam: ExamRow): Promise<void> {
  if (!EXAMINER_ROLES.includes(actor.role)) return;
  if (!(await heldExamRoom(db, exam, actor.id))) {
    throw certificateError('CERTIFICATE_NOT_CUSTODIAN');
  }
}

/**
 * Issues (or finds) the certificate of an exam of the unit, in a transaction.
 * `find` locks the exam: an audit decision or reopening in progress is waited
 * for, so a certificate is never issued from a result that is being changed.
 * `issuer` is the signed-in user (checked by checkCustodian), or null for the
 * integration.
 */
async function issueFor(
  deps: CertificateDeps,
  unit: string,
  find: (tx: Executor) => Promise<ExamRow | undefined>,
  issuer: SessionUser | null,
): Promise<Certificate> {
  const row = await deps.db.transaction(async (tx) => {
    const exam = await find(tx);
    if (!exam || exam.federativeUnit !== unit) throw certificateError('CERTIFICATE_EXAM_NOT_FOUND');
    if (issuer) await checkCustodian(tx, issuer, exam);
    if (exam.status !== 'done' || (exam.result !== 'approved' && exam.result !== 'reproved')) {
      throw certificateError('CERTIFICATE_NOT_FINAL');
    }
    const valid = await findValidCertificate(tx, exam.id);
    if (valid) return valid;
    const created = await insertCertificate(tx, {
      federativeUnit: unit,
      examId: exam.id,
      code: newCertificateCode(),
      content: await contentFor(tx, exam),
      issuedBy: issuer?.id ?? null,
    });
    // A concurrent issue won the unique index: its certificate is the exam's.
    const issued = created ?? (await findValidCertificate(tx, exam.id));
    if (!issued) throw new Error('certificado não encontrado depois da emissão');
    if (created) {
      await insertActivity(tx, {
        type: 'certificate_issue',
        actorId: issuer?.id ?? null,
        federativeUnit: unit,
        payload: { examId: exam.id, schedulingId: exam.schedulingId, certificateId: created.id },
      });
    }
    return issued;
  });
  return toCertificate(deps, row);
}

/** `POST api/Certificate/{examId}`: from the finished exams view. */
export function issueCertificate(
  deps: CertificateDeps,
  actor: SessionUser,
  examId: string,
): Promise<Certificate> {
  return issueFor(
    deps,
    actor.federativeUnit,
    (tx) => lockExam(tx, actor.federativeUnit, examId),
    actor,
  );
}

/** `POST api/Integration/exams/{schedulingId}/certificate`. */
export function issueCertificateForIntegration(
  deps: CertificateDeps,
  caller: { federativeUnit: string },
  schedulingId: string,
): Promise<Certificate> {
  return issueFor(
    deps,
    caller.federativeUnit,
    (tx) => findExam(tx, caller.federativeUnit, schedulingId, true),
    null,
  );
}

/**
 * `GET api/Certificate/{id}/pdf`: the PDF of a certificate of the unit, to
 * whoever may hold it (checkCustodian).
 */
export async function readCertificatePdf(
  deps: CertificateDeps,
  actor: SessionUser,
  id: string,
): Promise<{ pdf: Buffer; filename: string }> {
  const row = await findUnitCertificate(deps.db, actor.federativeUnit, id);
  if (!row) throw certificateError('CERTIFICATE_NOT_FOUND');
  const exam = await findExam(deps.db, actor.federativeUnit, contentOf(row).schedulingId);
  if (!exam) throw certificateError('CERTIFICATE_NOT_FOUND');
  await checkCustodian(deps.db, actor, exam);
  return renderPdfOf(deps, row);
}

/** The PDF of a certificate of the unit. */
async function certificatePdf(
  deps: CertificateDeps,
  unit: string,
  id: string,
): Promise<{ pdf: Buffer; filename: string }> {
  const row = await findUnitCertificate(deps.db, unit, id);
  if (!row) throw certificateError('CERTIFICATE_NOT_FOUND');
  return renderPdfOf(deps, row);
}

async function renderPdfOf(
  deps: CertificateDeps,
  row: CertificateRow,
): Promise<{ pdf: Buffer; filename: string }> {
  const certificate = await toCertificate(deps, row);
  return {
    pdf: await renderCertificatePdf(certificate),
    filename: `certificado-${contentOf(row).schedulingId}.pdf`,
  };
}

/** The latest certificate of an exam of the integration's unit, as a PDF. */
export async function integrationCertificatePdf(
  deps: CertificateDeps,
  caller: { federativeUnit: string },
  schedulingId: string,
): Promise<{ pdf: Buffer; filename: string }> {
  const exam = await findExam(deps.db, caller.federativeUnit, schedulingId);
  const row = exam ? await findLatestCertificate(deps.db, exam.id) : undefined;
  if (!row) throw certificateError('CERTIFICATE_NOT_FOUND');
  return certificatePdf(deps, caller.federativeUnit, row.id);
}

/**
 * `GET api/Certificate/verify/{code}` (public): whether the certificate is
 * authentic and still valid, with what a third party may see. Rate-limited
 * per address, and a wrong code costs the same as a right one.
 */
export async function verifyCertificate(
  deps: CertificateDeps,
  input: { code: string; schedulingId?: string; ip: string },
): Promise<CertificateCheck> {
  await deps.limiter.hit('certificatePerIp', input.ip);
  const row = await findCertificateByCode(deps.db, input.code);
  const content = row ? contentOf(row) : undefined;
  if (!row || !content || (input.schedulingId && content.schedulingId !== input.schedulingId)) {
    throw certificateError('CERTIFICATE_NOT_FOUND');
  }
  return {
    code: formatCertificateCode(row.code),
    status: row.revokedAt ? 'revoked' : 'valid',
    issuedAt: row.issuedAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedReason: row.revokedReason,
    verifyUrl: verifyUrlOf(deps.publicAppUrl, row, content.schedulingId),
    content: {
      schedulingId: content.schedulingId,
      candidateName: content.candidateName,
      candidateCpf: maskCpf(content.candidateCpf),
      federativeUnit: content.federativeUnit,
      unitName: content.unitName,
      postName: content.postName,
      roomLocal: content.roomLocal,
      examDate: content.examDate,
      result: content.result,
    },
  };
}

/**
 * In the audit's transaction: a disqualification or a reopened decision
 * revokes the exam's valid certificate, with the time and the reason.
 */
export async function revokeForResult(
  tx: Executor,
  exam: { id: string; federativeUnit: string; schedulingId: string },
  result: string,
  actorId: string,
  at: Date,
): Promise<void> {
  const reason =
    result === 'disqualified' ? 'disqualified' : result === 'in_analysis' ? 'reopened' : null;
  if (!reason) return;
  const revoked = await revokeCertificates(tx, exam.id, { at, reason });
  for (const certificate of revoked) {
    await insertActivity(tx, {
      type: 'certificate_revoke',
      actorId,
      federativeUnit: exam.federativeUnit,
      payload: {
        examId: exam.id,
        schedulingId: exam.schedulingId,
        certificateId: certificate.id,
        reason,
      },
    });
  }
}
