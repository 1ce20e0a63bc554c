/**
 * One pass over each picture of a take: the upload is checked,
 * decoded and re-encoded once (image.ts), the clean JPEG is analysed once by
 * the engine (which also makes the picture's thumbnail), and the challenge
 * check (challenge-check.ts) reads those analyses. Enrolment, verification
 * and the examiners' check-in all come through here.
 */
import { AppError } from '../lib/app-error';
import type { FaceAnalysis, FaceService } from './face-engine';
import { validateAndNormalizeImage } from './image';

export type AnalysedCapture = {
  /** The re-encoded picture, the one to store. */
  jpeg: Buffer;
  analysis: FaceAnalysis;
};

type Pass = { ok: true; capture: AnalysedCapture } | { ok: false; error: unknown };

/** One picture, normalised once and analysed once; its failure is returned, not thrown. */
async function passOver(face: FaceService, picture: string): Promise<Pass> {
  try {
    const { jpeg } = await validateAndNormalizeImage(picture);
    return { ok: true, capture: { jpeg, analysis: await face.analyze(jpeg) } };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * The pictures of a challenge take, each normalised and analysed
 * once, all at the same time. Any picture that is not a usable picture, or
 * shows no usable face, stops the take, named by its place (1-based, the
 * first neutral picture is 1): every picture of a take is evidence.
 */
export async function analyzeTake(
  face: FaceService,
  pictures: readonly string[],
): Promise<AnalysedCapture[]> {
  const passes = await Promise.all(pictures.map((picture) => passOver(face, picture)));
  const captures: AnalysedCapture[] = [];
  for (const [index, pass] of passes.entries()) {
    if (pass.ok) {
      captures.push(pass.capture);
      continue;
    }
    const error = pass.error;
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    throw new AppError(error.code, `Foto ${index + 1} da captura: ${error.message}`, error.status, [
      { path: index === 0 ? 'image' : `frames.${index - 1}`, message: error.message },
    ]);
  }
  return captures;
}
