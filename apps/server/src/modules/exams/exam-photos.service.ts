/**
 * Exam photos: a picture already validated and re-encoded (biometrics/image)
 * stored encrypted and recorded with its exam; the same picture sent twice is
 * stored once. Runs in the caller's transaction.
 */
import { createHash } from 'node:crypto';
import type { NormalisedImage } from '../../biometrics/image';
import type { Executor } from '../../db/client';
import type { FileStorage } from '../../lib/file-storage';
import {
  findCapture,
  findReferencePhoto,
  insertPhoto,
  replacePhoto,
} from './exam-photos.repository';

/** For the photo audit, which marks the captures. */
export { findCapture } from './exam-photos.repository';

export async function storeExamPhoto(
  tx: Executor,
  files: FileStorage,
  examId: string,
  picture: NormalisedImage,
  capturedAt: Date,
): Promise<{ id: string; created: boolean }> {
  const sha256 = createHash('sha256').update(picture.jpeg).digest('hex');
  const existing = await findCapture(tx, examId, { sha256 });
  if (existing) return { id: existing.id, created: false };
  const storageKey = await files.put(picture.jpeg);
  const row = await insertPhoto(tx, {
    examId,
    capturedAt,
    storageKey,
    contentType: 'image/jpeg',
    width: picture.width,
    height: picture.height,
    bytes: picture.jpeg.length,
    sha256,
  });
  return { id: row.id, created: true };
}

/**
 * The candidate's reference photo (the picture on file): one per exam, a new
 * one replaces the previous (whose face reading no longer applies).
 */
export async function storeReferencePhoto(
  tx: Executor,
  files: FileStorage,
  examId: string,
  picture: NormalisedImage,
): Promise<{ id: string; created: boolean; replacedKey?: string }> {
  const sha256 = createHash('sha256').update(picture.jpeg).digest('hex');
  const current = await findReferencePhoto(tx, examId);
  if (current?.sha256 === sha256) return { id: current.id, created: false };
  const storageKey = await files.put(picture.jpeg);
  const fields = {
    capturedAt: new Date(),
    storageKey,
    contentType: 'image/jpeg',
    width: picture.width,
    height: picture.height,
    bytes: picture.jpeg.length,
    sha256,
  };
  if (current) {
    await replacePhoto(tx, current.id, fields);
    // The caller removes the old file once the transaction is committed.
    return { id: current.id, created: true, replacedKey: current.storageKey };
  }
  const row = await insertPhoto(tx, { examId, kind: 'reference', ...fields });
  return { id: row.id, created: true };
}
