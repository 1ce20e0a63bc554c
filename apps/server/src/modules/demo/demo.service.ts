/**
 * The demonstration flows (spec 2, 6: `/demo-register/`, `/demo-register2/`,
 * `/demo-biometry/:cpf`, `/demo-finished/`), ADMIN of the DEMO unit only: a
 * demonstration candidate is registered (their data), their contact and
 * explicit consent to the processing of biometric data (LGPD Art. 11: the
 * time, the version of the text shown and its SHA-256) are recorded, their
 * face is enrolled, and a second capture is verified against the enrolment,
 * with every score and what the liveness check saw. The ADMIN of DEMO can
 * wipe all of it.
 *
 * The face work is `api/BiopassID`'s own (face-enrolment.service.ts): the same
 * engine, threshold, liveness check, request limits, encrypted storage and
 * record of every verification. Nothing biometric happens without a current
 * consent. A change and its activity event share one transaction.
 */
import { createHash } from 'node:crypto';
import {
  BIOMETRIC_CONSENT_TEXT,
  BIOMETRIC_CONSENT_VERSION,
  DEMO_ERRORS,
  DEMO_UNIT,
  type DemoCandidate,
  type DemoErrorCode,
  type DemoVerification,
  type DemoWipeResult,
  type EnrolResponse,
} from '@exame/shared';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { changeWithActivity, insertActivity } from '../activity/activity.service';
import { enrolFace, verifyBurst, type BiopassDeps } from '../face-enrolment/face-enrolment.service';
import {
  deleteDemoData,
  findCandidate,
  listCandidates,
  lockCandidate,
  setLastVerification,
  updateContact,
  upsertCandidate,
  type CandidateRow,
  type CandidateView,
} from './demo.repository';

export type DemoDeps = BiopassDeps;

const demoError = (code: DemoErrorCode) => AppError.from(DEMO_ERRORS, code);

/** The SHA-256 of the consent text of BIOMETRIC_CONSENT_VERSION, as recorded with each consent. */
export const BIOMETRIC_CONSENT_SHA256 = createHash('sha256')
  .update(BIOMETRIC_CONSENT_TEXT, 'utf8')
  .digest('hex');

/** Demo data lives in the DEMO unit only: every demo call of another unit's ADMIN is refused. */
export function assertDemoUnit(actor: SessionUser): void {
  if (actor.federativeUnit !== DEMO_UNIT) throw demoError('DEMO_UNIT_ONLY');
}

/** A consent to the text shown now: same version, same text. */
function hasCurrentConsent(row: CandidateRow): boolean {
  return (
    row.consentAt !== null &&
    row.consentVersion === BIOMETRIC_CONSENT_VERSION &&
    row.consentTextSha256 === BIOMETRIC_CONSENT_SHA256
  );
}

/** The whole CPF: the ADMIN who runs the demonstration typed it and types it again. */
function toCandidate(row: CandidateView): DemoCandidate {
  return {
    id: row.id,
    name: row.name,
    cpf: row.cpf,
    birthDate: row.birthDate,
    email: row.email,
    phone: row.phone,
    consent:
      row.consentAt && row.consentVersion
        ? {
            at: row.consentAt.toISOString(),
            version: row.consentVersion,
            current: hasCurrentConsent(row),
          }
        : null,
    enrolled: row.enrolled,
    lastVerification: row.lastVerification ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Whole CPFs leave the server for the ADMIN's screens, and each such read is
 * written down (`cpf_view`, with the candidates' ids, never the CPFs), as
 * the users module does.
 */
async function recordWholeCpfRead(
  deps: DemoDeps,
  actor: SessionUser,
  rows: CandidateView[],
): Promise<void> {
  if (rows.length === 0) return;
  await insertActivity(deps.db, {
    type: 'cpf_view',
    actorId: actor.id,
    federativeUnit: actor.federativeUnit,
    payload: { demoCandidateIds: rows.map((row) => row.id) },
  });
}

async function readCandidate(db: Executor, cpf: string): Promise<CandidateView> {
  const row = await findCandidate(db, DEMO_UNIT, cpf);
  if (!row) throw demoError('DEMO_CANDIDATE_NOT_FOUND');
  return row;
}

/** `GET api/Demo/candidates`: the unit's candidates, newest first. */
export async function searchCandidates(
  deps: DemoDeps,
  actor: SessionUser,
): Promise<DemoCandidate[]> {
  assertDemoUnit(actor);
  const rows = await listCandidates(deps.db, DEMO_UNIT);
  await recordWholeCpfRead(deps, actor, rows);
  return rows.map(toCandidate);
}

/** `GET api/Demo/candidates/{cpf}`. */
export async function getCandidate(
  deps: DemoDeps,
  actor: SessionUser,
  cpf: string,
): Promise<DemoCandidate> {
  assertDemoUnit(actor);
  const row = await readCandidate(deps.db, cpf);
  await recordWholeCpfRead(deps, actor, [row]);
  return toCandidate(row);
}

/**
 * `POST api/Demo/candidates` (`/demo-register/`): registers the candidate,
 * or, for a CPF already registered, updates their name and birth date
 * (`created` tells which). Contact, consent and enrolment are kept.
 */
export async function registerCandidate(
  deps: DemoDeps,
  actor: SessionUser,
  input: { name: string; cpf: string; birthDate: string },
): Promise<{ candidate: DemoCandidate; created: boolean }> {
  assertDemoUnit(actor);
  return changeWithActivity(deps.db, actor, async (tx) => {
    const { row, inserted } = await upsertCandidate(tx, {
      federativeUnit: DEMO_UNIT,
      cpf: input.cpf,
      name: input.name,
      birthDate: input.birthDate,
      createdBy: actor.id,
    });
    const view = await readCandidate(tx, row.cpf);
    return {
      result: { candidate: toCandidate(view), created: inserted },
      type: 'demo_candidate_add',
      payload: { candidateId: row.id, updated: !inserted },
    };
  });
}

/**
 * `PUT api/Demo/candidates/{cpf}/contact` (`/demo-register2/`): the contact
 * and the explicit consent, recorded with the time, the version of the text
 * shown and the text's SHA-256. A consent to another version than the
 * current text is refused: the candidate must see the text in force.
 */
export async function recordContact(
  deps: DemoDeps,
  actor: SessionUser,
  cpf: string,
  input: { email: string; phone: string; consent: true; consentVersion: string },
): Promise<DemoCandidate> {
  assertDemoUnit(actor);
  if (input.consentVersion !== BIOMETRIC_CONSENT_VERSION) throw demoError('DEMO_CONSENT_OUTDATED');
  return changeWithActivity(deps.db, actor, async (tx) => {
    const current = await lockCandidate(tx, DEMO_UNIT, cpf);
    if (!current) throw demoError('DEMO_CANDIDATE_NOT_FOUND');
    await updateContact(tx, DEMO_UNIT, cpf, {
      email: input.email,
      phone: input.phone,
      consentAt: new Date(),
      consentVersion: BIOMETRIC_CONSENT_VERSION,
      consentTextSha256: BIOMETRIC_CONSENT_SHA256,
    });
    const view = await readCandidate(tx, cpf);
    return {
      result: toCandidate(view),
      type: 'demo_consent',
      payload: {
        candidateId: current.id,
        version: BIOMETRIC_CONSENT_VERSION,
        textSha256: BIOMETRIC_CONSENT_SHA256,
      },
    };
  });
}

/** The candidate, who must have given the current consent before anything biometric. */
function assertConsent(row: CandidateRow | null): CandidateRow {
  if (!row) throw demoError('DEMO_CANDIDATE_NOT_FOUND');
  if (!hasCurrentConsent(row)) throw demoError('DEMO_CONSENT_REQUIRED');
  return row;
}

/**
 * `POST api/Demo/candidates/{cpf}/enrol` (`/demo-biometry/:cpf`): the
 * candidate's face, enrolled in DEMO like any enrolment (keyed by unit and
 * CPF). The consent is checked before the engine runs and again, with the
 * candidate locked, in the transaction that writes the template: a wipe
 * meanwhile leaves no enrolment behind.
 */
export async function enrolCandidate(
  deps: DemoDeps,
  actor: SessionUser,
  cpf: string,
  input: { challengeId?: string | null; image: string; frames?: string[] },
): Promise<EnrolResponse> {
  assertDemoUnit(actor);
  assertConsent(await findCandidate(deps.db, DEMO_UNIT, cpf));
  return enrolFace(
    deps,
    actor,
    { cpf, challengeId: input.challengeId, image: input.image, frames: input.frames },
    {
      subject: 'demo-candidate',
      confirm: async (tx) => {
        assertConsent(await lockCandidate(tx, DEMO_UNIT, cpf));
      },
    },
  );
}

/**
 * `POST api/Demo/candidates/{cpf}/verify`: a second capture (the burst)
 * against the candidate's enrolment, with the verification of
 * `api/BiopassID/Verify` (same threshold, liveness check and limits,
 * recorded like any other). This is a demonstration of the engine by an
 * ADMIN of DEMO, not the face validation of the check-in (DF only, spec 5):
 * nothing is admitted by it and no capture is kept. The result is kept as the
 * candidate's last verification (`/demo-finished/`).
 */
export async function verifyCandidate(
  deps: DemoDeps,
  actor: SessionUser,
  cpf: string,
  input: {
    challengeId?: string | null;
    image: string;
    frames?: string[];
    deviceId?: string | null;
  },
): Promise<DemoVerification> {
  assertDemoUnit(actor);
  const candidate = await findCandidate(deps.db, DEMO_UNIT, cpf);
  assertConsent(candidate);
  if (!candidate?.enrolled) throw demoError('DEMO_NOT_ENROLLED');
  let response;
  try {
    ({ response } = await verifyBurst(
      deps,
      actor,
      {
        cpf,
        challengeId: input.challengeId,
        image: input.image,
        frames: input.frames,
        deviceId: input.deviceId ?? null,
      },
      { keepCapture: false, demonstration: true },
    ));
  } catch (error) {
    // The enrolment went away meanwhile (a wipe): say it in the demonstration's words.
    if (error instanceof AppError && error.code === 'BIOMETRIC_NOT_ENROLLED') {
      throw demoError('DEMO_NOT_ENROLLED');
    }
    throw error;
  }
  const verification: DemoVerification = {
    verified: response.verified,
    match: response.match,
    distance: response.distance,
    similarity: response.similarity,
    threshold: response.threshold,
    liveness: response.liveness,
    message: response.message,
    at: new Date().toISOString(),
  };
  await setLastVerification(deps.db, DEMO_UNIT, cpf, verification);
  return verification;
}

/**
 * `DELETE api/Demo/data`: every demonstration candidate of DEMO, their face
 * enrolments and verification records, in one transaction with its activity
 * event; the stored face images after the commit (a rolled-back wipe must not
 * lose a file still referenced). The enrolment and verifications of a CPF
 * that is also a user of DEMO are the user's, and stay.
 */
export async function wipeDemoData(deps: DemoDeps, actor: SessionUser): Promise<DemoWipeResult> {
  assertDemoUnit(actor);
  const removed = await changeWithActivity(deps.db, actor, async (tx) => {
    const deleted = await deleteDemoData(tx, DEMO_UNIT);
    return {
      result: deleted,
      type: 'demo_wipe',
      payload: {
        candidates: deleted.candidates,
        enrolments: deleted.enrolments,
        verifications: deleted.verifications,
        files: deleted.fileKeys.length,
      },
    };
  });
  for (const key of removed.fileKeys) await deps.files.remove(key);
  return { candidates: removed.candidates, enrolments: removed.enrolments };
}
