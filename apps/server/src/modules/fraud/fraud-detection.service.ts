/**
 * Finding possible proxy test-takers as exam photos are read: after the
 * face engine reads an exam's captures (the `face-read` queue, or an auditor
 * opening the exam: audits/photo-faces.service.ts), the exam's face is made
 * (biometrics/exam-face.ts), written to `exam_faces`, and searched among the
 * unit's exams of the window (UnitFaceIndexes). Exams of other CPFs closer
 * than the one-to-many threshold (config/fraud-threshold.ts) join a case
 * with it: the oldest open case that holds one of them, or a new one. A pair
 * of exams belongs to one case only, so a dismissed case is not raised again
 * by the same two exams. Nothing here changes an exam: a case is a lead for
 * an auditor.
 */
import { closestCaptures, examFaceOf, type CaptureFace } from '../../biometrics/exam-face';
import { DESCRIPTOR_LENGTH, faceDistance } from '../../biometrics/descriptor';
import type { Database } from '../../db/client';
import {
  captureReadingsOf,
  deleteExamFace,
  deleteExamFacesBefore,
  examFacesOf,
  findExamForFace,
  examsWithReadCaptures,
  saveExamFace,
  unitsWithFaces,
  type CaptureReading,
} from './exam-faces.repository';
import {
  addToCase,
  insertCase,
  knownPairs,
  lockUnitCases,
  lockUnitFaces,
  openCaseWithAny,
  type MatchPair,
} from './fraud-matches.repository';
import { UnitFaceIndexes } from './unit-face-indexes';

const DAY_MS = 86_400_000;

/** Candidates asked of the index per search (hits of the same CPF are dropped after). */
const SEARCH_LIMIT = 50;

export type FraudDetectionDeps = {
  db: Database;
  /** The running engine's descriptor version. */
  descriptorVersion: string;
  /** Fused distance under which two exam faces are one person (FRAUD_MATCH_THRESHOLD). */
  threshold: number;
  windowDays: number;
  now?: () => Date;
};

export type FraudCheck =
  | { status: 'no-face' | 'outside-window' | 'no-match' }
  | { status: 'case'; caseId: string; matched: number };

export type FraudDetection = {
  /** Makes the exam's face and looks for it among the unit's exams (after a reading). */
  examRead: (examId: string) => Promise<FraudCheck>;
  indexes: UnitFaceIndexes;
  windowStart: () => Date;
};

function capturesOf(
  readings: readonly CaptureReading[],
  version: string,
  examId: string,
): CaptureFace[] {
  return readings
    .filter(
      (reading) =>
        reading.examId === examId &&
        reading.faceStatus === 'found' &&
        reading.faceDescriptorVersion === version &&
        reading.faceDescriptor?.length === DESCRIPTOR_LENGTH,
    )
    .map((reading) => ({ id: reading.id, descriptor: reading.faceDescriptor ?? [] }));
}

const similarityOf = (distance: number) => Math.max(0, Math.min(1, 1 - distance));

export function createFraudDetection(deps: FraudDetectionDeps): FraudDetection {
  const indexes = new UnitFaceIndexes(deps.descriptorVersion);
  const now = deps.now ?? (() => new Date());
  const windowStart = () => new Date(now().getTime() - deps.windowDays * DAY_MS);

  async function examRead(examId: string): Promise<FraudCheck> {
    const { db, descriptorVersion: version } = deps;
    const exam = await findExamForFace(db, examId);
    if (!exam) return { status: 'no-face' };
    const own = capturesOf(await captureReadingsOf(db, [examId]), version, examId);
    const face = examFaceOf(own);
    const from = windowStart();
    if (!face || exam.schedulingDate < from) {
      await deleteExamFace(db, examId);
      indexes.forget(exam.federativeUnit, [examId]);
      return { status: face ? 'outside-window' : 'no-face' };
    }
    await db.transaction(async (tx) => {
      await lockUnitFaces(tx, exam.federativeUnit);
      await saveExamFace(tx, exam, {
        descriptor: face.descriptor,
        version,
        captures: face.captureIds.length,
      });
    });

    const hits = await indexes.search(db, exam.federativeUnit, face.descriptor, {
      maxDistance: deps.threshold,
      limit: SEARCH_LIMIT,
      exclude: (key) => key === examId,
    });
    if (hits.length === 0) return { status: 'no-match' };
    // The table decides: a hit outside the window, of another engine, of the
    // same CPF or no longer there is no match.
    const rows = await examFacesOf(
      db,
      exam.federativeUnit,
      hits.map((hit) => hit.key),
      from,
    );
    const found = new Set(rows.map((row) => row.examId));
    indexes.forget(
      exam.federativeUnit,
      hits.map((hit) => hit.key).filter((key) => !found.has(key)),
    );
    const matches = rows
      .filter((row) => row.descriptorVersion === version && row.candidateCpf !== exam.candidateCpf)
      .map((row) => ({
        examId: row.examId,
        distance: faceDistance(face.descriptor, row.descriptor),
      }))
      .filter((match) => match.distance < deps.threshold);
    if (matches.length === 0) return { status: 'no-match' };

    const readings = await captureReadingsOf(
      db,
      matches.map((match) => match.examId),
    );
    const pairs: MatchPair[] = matches.map((match) => {
      const closest = closestCaptures(own, capturesOf(readings, version, match.examId));
      const [examA, examB] =
        examId < match.examId ? [examId, match.examId] : [match.examId, examId];
      const [captureA, captureB] =
        examA === examId
          ? [closest?.a ?? null, closest?.b ?? null]
          : [closest?.b ?? null, closest?.a ?? null];
      return { examA, examB, similarity: similarityOf(match.distance), captureA, captureB };
    });

    const caseId = await db.transaction(async (tx) => {
      await lockUnitCases(tx, exam.federativeUnit);
      const known = await knownPairs(tx, pairs);
      const fresh = pairs.filter((pair) => !known.has(`${pair.examA}:${pair.examB}`));
      if (fresh.length === 0) return null;
      const examIds = [...new Set(fresh.flatMap((pair) => [pair.examA, pair.examB]))];
      const id =
        (await openCaseWithAny(tx, exam.federativeUnit, examIds)) ??
        (await insertCase(
          tx,
          exam.federativeUnit,
          Math.max(...fresh.map((pair) => pair.similarity)),
        ));
      await addToCase(tx, id, examIds, fresh);
      return id;
    });
    return caseId ? { status: 'case', caseId, matched: matches.length } : { status: 'no-match' };
  }

  return { examRead, indexes, windowStart };
}

/**
 * The search as the readers call it (PhotoFaceDeps.afterExamRead): a failure
 * is logged and never fails the reading (the photo stays read; the
 * `fraud:reindex` command looks again).
 */
export function searchAfterRead(
  detection: FraudDetection,
  log: { error: (object: object, msg: string) => void },
): (examId: string) => Promise<void> {
  return async (examId) => {
    try {
      await detection.examRead(examId);
    } catch (error) {
      log.error({ err: error, examId }, 'busca de possíveis fraudes de um exame falhou');
    }
  };
}

/** The search as a process wires it: the detection, and what its readers call after each reading. */
export type FraudSearch = {
  detection: FraudDetection;
  afterExamRead: (examId: string) => Promise<void>;
};

export function fraudSearch(options: {
  db: Database;
  descriptorVersion: string;
  settings: { threshold: number; windowDays: number };
  log: { error: (object: object, msg: string) => void };
}): FraudSearch {
  const detection = createFraudDetection({
    db: options.db,
    descriptorVersion: options.descriptorVersion,
    ...options.settings,
  });
  return { detection, afterExamRead: searchAfterRead(detection, options.log) };
}

/**
 * Faces past the window, or past the unit's retention of exam photos when
 * that is shorter (a face never outlives the captures it was made of), are
 * deleted (the retention job, once a day). The indexes drop them when a
 * search meets them.
 */
export async function purgeExamFaces(
  db: Database,
  settings: {
    windowDays: number;
    retention: { defaultDays: number; byUnit: Record<string, number> };
  },
  now: Date = new Date(),
): Promise<Record<string, number>> {
  const purged: Record<string, number> = {};
  for (const unit of await unitsWithFaces(db)) {
    const days = Math.min(
      settings.windowDays,
      settings.retention.byUnit[unit] ?? settings.retention.defaultDays,
    );
    const removed = await deleteExamFacesBefore(db, unit, new Date(now.getTime() - days * DAY_MS));
    if (removed > 0) purged[unit] = removed;
  }
  return purged;
}

export type ReindexProgress = { exams: number; faces: number; cases: number };

/**
 * `npm run fraud:reindex`: every exam of the window with read captures has
 * its face made again and searched again (after an engine or rule change, or
 * to catch up with searches that failed); the indexes are built from the
 * table as it goes. Pairs already in a case are not raised again.
 */
export async function reindexExamFaces(
  detection: FraudDetection,
  db: Database,
  onProgress?: (progress: ReindexProgress) => void,
): Promise<ReindexProgress> {
  const progress: ReindexProgress = { exams: 0, faces: 0, cases: 0 };
  const cases = new Set<string>();
  let after: string | null = null;
  for (;;) {
    const batch = await examsWithReadCaptures(db, detection.windowStart(), after, 500);
    for (const examId of batch) {
      const check = await detection.examRead(examId);
      progress.exams += 1;
      if (check.status === 'no-match' || check.status === 'case') progress.faces += 1;
      if (check.status === 'case') cases.add(check.caseId);
    }
    progress.cases = cases.size;
    if (batch.length > 0) onProgress?.({ ...progress });
    if (batch.length < 500) return progress;
    after = batch.at(-1) ?? null;
  }
}
