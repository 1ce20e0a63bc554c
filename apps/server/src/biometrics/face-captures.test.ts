/**
 * One pass over each picture of a verification, on the real engine and the
 * dev photos: each picture is decoded and re-encoded once and analysed
 * once, the burst check reads those analyses, and errors name the picture.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { burstAround, photoWithoutFace, webcamFrame } from '../../test/faces/captures';
import { countingFaceService, tally } from '../../test/faces/counting-face-service';
import { faceFixturesDir, hasFaceFixtures } from '../../test/faces/fixtures';
import { analyzeVerificationCaptures } from './face-captures';
import { FaceEngine } from './face-engine';

const skipReason = !hasFaceFixtures('dev')
  ? `SKIPPED: face fixtures not found at ${faceFixturesDir()}/dev (set FACE_FIXTURES_DIR)`
  : process.env.TEST_DATABASE_URL
    ? 'SKIPPED: TEST_DATABASE_URL is set and the face engine does not use the database'
    : '';
if (skipReason) console.warn(`face captures tests ${skipReason}`);

const b64 = (buffer: Buffer) => buffer.toString('base64');

describe.skipIf(Boolean(skipReason))(`verification captures ${skipReason}`.trim(), () => {
  let engine: FaceEngine;
  let counting: ReturnType<typeof countingFaceService>;
  beforeAll(async () => {
    engine = new FaceEngine();
    await engine.ready();
    counting = countingFaceService(engine);
  });
  afterAll(async () => {
    counting?.stop();
    await engine?.close();
  });

  it('decodes, re-encodes and analyses each picture once; the burst check reads those analyses', async () => {
    const [image, ...frames] = (await burstAround(await webcamFrame('p01-2.jpg'))).map(b64);
    counting.reset();
    const { probe, burst } = await analyzeVerificationCaptures(counting.service, image!, frames);
    const { normalised, analysed, burstChecks } = counting.passes;
    expect(normalised).toHaveLength(3);
    expect([...tally(analysed).values()]).toEqual([1, 1, 1]);
    expect(new Set(analysed)).toEqual(new Set(normalised));
    expect(burstChecks).toEqual([3]);
    expect(burst).toMatchObject({ ok: true, result: { passed: true, details: { frames: 3 } } });
    expect(probe.analysis.descriptor).toHaveLength(128);
  });

  it("an error of the image is the verification's; a frame that is not a picture is refused by name", async () => {
    const frame = b64(await webcamFrame('p01-2.jpg', 6, 3));
    await expect(
      analyzeVerificationCaptures(engine, b64(await photoWithoutFace('p01-1.jpg')), [frame]),
    ).rejects.toMatchObject({ code: 'FACE_NOT_FOUND', details: undefined });
    await expect(
      analyzeVerificationCaptures(engine, frame, [frame, b64(Buffer.from('nem uma foto'))]),
    ).rejects.toMatchObject({
      code: 'IMAGE_UNSUPPORTED_TYPE',
      status: 415,
      details: [{ path: 'frames.1', message: expect.any(String) }],
    });
  });

  it('a frame without a usable face fails the burst check, naming the frame', async () => {
    const image = b64(await webcamFrame('p01-2.jpg'));
    const { burst } = await analyzeVerificationCaptures(engine, image, [
      b64(await webcamFrame('p01-2.jpg', 6, 3)),
      b64(await photoWithoutFace('p01-1.jpg')),
    ]);
    expect(burst.ok).toBe(false);
    if (burst.ok) return;
    expect(burst.error).toMatchObject({
      code: 'FACE_NOT_FOUND',
      details: [{ path: 'frames.1', message: burst.error.message }],
    });
  });
});
