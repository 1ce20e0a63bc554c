/**
 * The search indexes of this process, one per unit: a unit's exams are only
 * ever searched among its own (tenant isolation holds in the index too).
 * Each index is a cache of the `exam_faces` table, the source of truth: before
 * a search it catches up with the faces written since the last `seq` it saw
 * (by this process or any other: the server, the face workers; the writes
 * of a unit's faces are serialised, so `seq` order is commit order). A face
 * the table no longer holds (retention, a deleted exam, a face no longer
 * made) is dropped when a search's hits are checked against the table, and
 * at the latest RECONCILE_MS later, when the index compares its faces with
 * the table's (biometric templates leave memory with their rows). A process
 * that starts, or `npm run fraud:reindex`, builds it again from the table.
 */
import { FaceIndex, type FaceIndexHit, type FaceSearchOptions } from '../../biometrics/face-index';
import type { Executor } from '../../db/client';
import { examFaceIdsOf, examFacesSince } from './exam-faces.repository';

/** Faces read per round trip while an index catches up. */
const CATCH_UP_BATCH = 2_000;

/** How often an index drops the faces the table no longer holds (deletions take no `seq`). */
export const RECONCILE_MS = 10 * 60_000;

type UnitIndex = { index: FaceIndex; seq: number; queue: Promise<unknown>; reconciledAt: number };

export class UnitFaceIndexes {
  private readonly units = new Map<string, UnitIndex>();

  /** `version`: the running engine's descriptor version (faces of another are left out). */
  constructor(private readonly version: string) {}

  private unit(unit: string): UnitIndex {
    let entry = this.units.get(unit);
    if (!entry) {
      entry = {
        index: new FaceIndex(),
        seq: 0,
        queue: Promise.resolve(),
        reconciledAt: Date.now(),
      };
      this.units.set(unit, entry);
    }
    return entry;
  }

  /** Runs `work` on the unit's index once it caught up with the table, one at a time per unit. */
  private queued<T>(db: Executor, unit: string, work: (index: FaceIndex) => Promise<T> | T) {
    const entry = this.unit(unit);
    const next = entry.queue.then(async () => {
      await this.catchUp(db, unit, entry);
      return work(entry.index);
    });
    entry.queue = next.catch(() => undefined);
    return next;
  }

  private async catchUp(db: Executor, unit: string, entry: UnitIndex): Promise<void> {
    for (;;) {
      const rows = await examFacesSince(db, unit, entry.seq, CATCH_UP_BATCH);
      for (const row of rows) {
        if (row.descriptorVersion === this.version) entry.index.upsert(row.examId, row.descriptor);
        else entry.index.remove(row.examId);
        entry.seq = Math.max(entry.seq, row.seq);
      }
      if (rows.length < CATCH_UP_BATCH) break;
    }
    if (Date.now() - entry.reconciledAt >= RECONCILE_MS) {
      const held = await examFaceIdsOf(db, unit);
      const gone = [...entry.index.entries()].map(([key]) => key).filter((key) => !held.has(key));
      for (const key of gone) entry.index.remove(key);
      entry.reconciledAt = Date.now();
    }
  }

  /** The unit's index, caught up with the table. */
  synced(db: Executor, unit: string): Promise<FaceIndex> {
    return this.queued(db, unit, (index) => index);
  }

  /** Searches the unit's faces, caught up with the table, nothing changing them meanwhile. */
  search(
    db: Executor,
    unit: string,
    template: ArrayLike<number>,
    options: FaceSearchOptions,
  ): Promise<FaceIndexHit[]> {
    return this.queued(db, unit, (index) => index.searchYielding(template, options));
  }

  /**
   * Drops faces the table no longer holds (found when a search's hits were
   * checked), in the unit's queue: never under a scan that is reading them.
   */
  forget(unit: string, examIds: Iterable<string>): void {
    const entry = this.units.get(unit);
    if (!entry) return;
    const gone = [...examIds];
    entry.queue = entry.queue.then(() => {
      for (const examId of gone) entry.index.remove(examId);
    });
  }

  /** Forgets every index: the next search of each unit rebuilds it from the table. */
  clear(): void {
    this.units.clear();
  }

  /** Makes the next catch-up of every index also drop the faces the table no longer holds. */
  reconcileNow(): void {
    for (const entry of this.units.values()) entry.reconciledAt = 0;
  }

  /** Faces held per unit (the rebuild command prints them). */
  sizes(): Record<string, number> {
    return Object.fromEntries([...this.units].map(([unit, entry]) => [unit, entry.index.size]));
  }
}
