/**
 * One pass over each picture of a take, on the real engine and the dev
 * photos: each picture is decoded and re-encoded once and analysed once, the
 * challenge check reads those analyses, and an error names its picture.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoWithoutFace } from '../../test/faces/captures';
import { countingFaceService, tally } from '../../test/faces/counting-face-service';
import { genuineBody } from '../../test/faces/takes';
import { checkTake } from './challenge-check';
import { analyzeTake } from './face-captures';
import { FacePool } from './face-pool';
import { faceEngineSkipReason } from '../../test/faces/engine-tier';

const skipReason = faceEngineSkipReason('face captures tests');

const b64 = (buffer: Buffer) => buffer.toString('base64');

describe.skipIf(Boolean(skipReason))(`take captures ${skipReason}`.trim(), () => {
  let engine: FacePool;
  let counting: ReturnType<typeof countingFaceService>;
  beforeAll(async () => {
    engine = new FacePool({ inProcess: true });
    await engine.ready();
    counting = countingFaceService(engine);
  });
  afterAll(async () => {
    counting?.stop();
    await engine?.close();
  });

  it('decodes, re-encodes and analyses each picture once, in order; the challenge check reads those analyses', async () => {
    const steps = ['right', 'up', 'left'] as const;
    const { image, frames } = await genuineBody(engine, 'p01-5.jpg', steps);
    counting.reset();
    const captures = await analyzeTake(counting.service, [image, ...frames]);
    const { normalised, analysed } = counting.passes;
    expect(captures).toHaveLength(5);
    expect(normalised).toHaveLength(5);
    expect([...tally(analysed).values()]).toEqual([1, 1, 1, 1, 1]);
    // Each analysis read the clean picture made from its upload, in the take's order.
    expect(analysed).toEqual(normalised);
    for (const capture of captures) expect(capture.analysis.descriptor).toHaveLength(128);
    const check = checkTake(
      steps,
      captures.map((capture) => capture.analysis),
    );
    expect(check).toMatchObject({
      passed: true,
      checks: { sameFace: true, continuous: true, followed: true, depth: true },
    });
    expect(check.details.poses).toHaveLength(4);
  });

  it('a picture that is not a picture, or has no usable face, stops the take, named by its place', async () => {
    const { image, frames } = await genuineBody(engine, 'p01-5.jpg', ['left', 'down']);
    await expect(
      analyzeTake(engine, [b64(await photoWithoutFace('p01-1.jpg')), ...frames]),
    ).rejects.toMatchObject({
      code: 'FACE_NOT_FOUND',
      message: expect.stringMatching(/^Foto 1 da captura: Nenhum rosto foi encontrado/),
      details: [{ path: 'image', message: expect.stringMatching(/^Nenhum rosto/) }],
    });
    await expect(
      analyzeTake(engine, [image, frames[0]!, b64(Buffer.from('nem uma foto')), frames[2]!]),
    ).rejects.toMatchObject({
      code: 'IMAGE_UNSUPPORTED_TYPE',
      status: 415,
      message: expect.stringMatching(/^Foto 3 da captura: /),
      details: [{ path: 'frames.1', message: expect.any(String) }],
    });
    await expect(
      analyzeTake(engine, [
        image,
        frames[0]!,
        frames[1]!,
        b64(await photoWithoutFace('p01-1.jpg')),
      ]),
    ).rejects.toMatchObject({
      code: 'FACE_NOT_FOUND',
      status: 422,
      details: [{ path: 'frames.2', message: expect.any(String) }],
    });
  });
});
