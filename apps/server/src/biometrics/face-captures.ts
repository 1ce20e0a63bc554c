/**
 * One pass over each picture a person sends: the upload is checked, decoded
 * and re-encoded once (image.ts), the clean JPEG is analysed once by the
 * engine (which also makes the frame's thumbnail), and the burst check reads
 * those analyses. Enrolment and verification both come through here; the
 * benchmark measures this very path (bench/face-verify.bench.ts).
 */
import { AppError } from '../lib/app-error';
import type { FaceAnalysis, FaceService } from './face-engine';
import { validateAndNormalizeImage } from './image';
import type { BurstResult } from './liveness';

export type AnalysedCapture = {
  /** The re-encoded picture, the one to store. */
  jpeg: Buffer;
  analysis: FaceAnalysis;
};

/** One picture: normalised once, analysed once. */
export async function analyzeCapture(
  face: FaceService,
  picture: string | Uint8Array,
): Promise<AnalysedCapture> {
  const { jpeg } = await validateAndNormalizeImage(picture);
  return { jpeg, analysis: await face.analyze(jpeg) };
}

type Pass =
  | { ok: true; capture: AnalysedCapture }
  | { ok: false; stage: 'upload' | 'analysis'; error: unknown };

/** analyzeCapture, telling an upload that is not a usable picture from a picture without a usable face. */
async function passOver(face: FaceService, picture: string): Promise<Pass> {
  let jpeg: Buffer;
  try {
    jpeg = (await validateAndNormalizeImage(picture)).jpeg;
  } catch (error) {
    return { ok: false, stage: 'upload', error };
  }
  try {
    return { ok: true, capture: { jpeg, analysis: await face.analyze(jpeg) } };
  } catch (error) {
    return { ok: false, stage: 'analysis', error };
  }
}

/** The error of `frames[index]`, naming it, or the error itself when it is not the picture's fault. */
function ofFrame(error: unknown, index: number): unknown {
  if (!(error instanceof AppError) || error.status >= 500) return error;
  return new AppError(error.code, error.message, error.status, [
    { path: `frames.${index}`, message: error.message },
  ]);
}

export type VerificationCaptures = {
  /** The verified picture (`image`). */
  probe: AnalysedCapture;
  /**
   * The liveness signal of the burst (`image`, then `frames`), or, when a
   * frame has no usable face, that frame's error: the check fails, it does
   * not stop the verification.
   */
  burst: { ok: true; result: BurstResult } | { ok: false; error: AppError };
};

/**
 * The engine's part of a 1:1 verification. `image` and each of `frames` are
 * normalised and analysed once, all at the same time (the pool spreads them
 * over its workers), and the burst check reads those analyses with `image`
 * first. An error of `image` is the verification's error; a frame that is
 * not a usable picture is refused, naming the frame; a frame without a
 * usable face fails the burst check. Engine failures (5xx) pass through.
 */
export async function analyzeVerificationCaptures(
  face: FaceService,
  image: string,
  frames: readonly string[],
): Promise<VerificationCaptures> {
  const [probe, ...others] = await Promise.all(
    [image, ...frames].map((picture) => passOver(face, picture)),
  );
  if (!probe) throw new TypeError('analyzeVerificationCaptures: sem imagem');
  if (!probe.ok) throw probe.error;
  const analyses: FaceAnalysis[] = [probe.capture.analysis];
  let faceless: AppError | null = null;
  for (const [index, pass] of others.entries()) {
    if (pass.ok) {
      analyses.push(pass.capture.analysis);
      continue;
    }
    const error = ofFrame(pass.error, index);
    // Not a picture, or the engine itself failing: that stops the verification.
    if (pass.stage === 'upload' || !(error instanceof AppError) || error.status >= 500) throw error;
    faceless ??= error;
  }
  if (faceless) return { probe: probe.capture, burst: { ok: false, error: faceless } };
  return { probe: probe.capture, burst: { ok: true, result: face.checkBurst(analyses) } };
}
