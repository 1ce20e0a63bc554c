/**
 * The engine's analysis of a picture for the studies and benchmarks of the
 * face challenge, optionally kept on disk by the picture's hash
 * (LIVENESS_CACHE=<dir>): the take generator is deterministic, so a study
 * that changes only the limits re-runs in seconds. A picture without a
 * usable face answers its error code.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FaceAnalysis, FaceService } from '../../src/biometrics/face-engine';
import { validateAndNormalizeImage } from '../../src/biometrics/image';
import { AppError } from '../../src/lib/app-error';

export async function analyseCached(
  face: Pick<FaceService, 'analyze'>,
  picture: Buffer,
  cacheDir: string | undefined = process.env.LIVENESS_CACHE,
): Promise<FaceAnalysis | string> {
  const key = createHash('sha256').update(picture).digest('hex');
  const file = cacheDir ? path.join(cacheDir, `${key}.json`) : null;
  if (file && fs.existsSync(file)) {
    const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as FaceAnalysis & {
      error?: string;
    };
    if (cached.error) return cached.error;
    return { ...cached, thumbnail: Uint8Array.from(cached.thumbnail as unknown as number[]) };
  }
  let result: FaceAnalysis | string;
  try {
    const { jpeg } = await validateAndNormalizeImage(picture);
    result = await face.analyze(jpeg);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    result = error.code;
  }
  if (file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const stored =
      typeof result === 'string'
        ? { error: result }
        : { ...result, thumbnail: Array.from(result.thumbnail) };
    fs.writeFileSync(file, JSON.stringify(stored));
  }
  return result;
}
