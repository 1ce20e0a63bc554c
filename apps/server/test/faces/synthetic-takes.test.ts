import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { type FaceMove } from '@exame/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FacePool } from '../../src/biometrics/face-pool';
import { fixturePath } from './fixtures';
import { eyeCentres } from './head-model';
import {
  attackTakes,
  genuineTake,
  loadSource,
  otherFaceTake,
  replayTake,
  stitchedTake,
  turningClip,
  type Source,
} from './synthetic-takes';
import { faceEngineSkipReason } from './engine-tier';

const skipReason = faceEngineSkipReason('synthetic takes tests');

/**
 * Where the nose tip (30) sits across the line through the nose root (27)
 * and the chin (8), in eye distances, + towards image-right. A head turning
 * to its own left moves the nose tip (in front) against that line (the
 * chin and nose root are further back); a flat picture keeps it.
 */
function noseAcrossMidline(landmarks: readonly number[]): number {
  const at = (i: number) => [landmarks[2 * i]!, landmarks[2 * i + 1]!] as const;
  const [x27, y27] = at(27);
  const [x8, y8] = at(8);
  const [x30, y30] = at(30);
  const eye = (from: number) => {
    const ids = [0, 1, 2, 3, 4, 5].map((k) => from + k);
    return [0, 1].map((c) => ids.reduce((sum, i) => sum + landmarks[2 * i + c]!, 0) / 6);
  };
  const [lx, ly] = eye(36);
  const [rx, ry] = eye(42);
  const lineX = x27 + ((x8 - x27) * (y30 - y27)) / (y8 - y27);
  return (x30 - lineX) / Math.hypot(rx! - lx!, ry! - ly!);
}

const digest = (pictures: readonly Buffer[]) => {
  const hash = createHash('sha256');
  for (const picture of pictures) hash.update(picture);
  return hash.digest('hex');
};

describe.skipIf(Boolean(skipReason))(`synthetic takes ${skipReason}`.trim(), () => {
  let engine: FacePool;
  let source: Source;
  const steps: FaceMove[] = ['left', 'right'];
  const shifts = async (pictures: readonly Buffer[]) => {
    const across: number[] = [];
    // analyze() refuses a picture with no face or more than one.
    for (const picture of pictures)
      across.push(noseAcrossMidline((await engine.analyze(picture)).landmarks));
    return across.map((value) => value - across[0]!);
  };

  beforeAll(async () => {
    engine = new FacePool({ inProcess: true });
    await engine.ready();
    const loaded = await loadSource(fixturePath('dev', 'p01-1.jpg'), engine);
    if (!loaded) throw new Error('p01-1 should give a source');
    source = loaded;
  }, 60_000);

  afterAll(async () => {
    await engine?.close();
  });

  it('frames the face like a webcam picture, with the engine landmarks on it', () => {
    expect([source.width, source.height]).toEqual([640, 400]);
    expect(source.rgb).toHaveLength(640 * 400 * 3);
    expect(source.landmarks).toHaveLength(136);
    const { left, right } = eyeCentres(source.landmarks);
    expect(Math.hypot(right[0] - left[0], right[1] - left[1])).toBeCloseTo(64, -1);
    expect(Math.abs(left[1] - right[1])).toBeLessThan(4);
  });

  // Made once, read by several tests: an attack set is ~120 pictures.
  const once = <T>(make: () => Promise<T>) => {
    let made: Promise<T> | undefined;
    return () => (made ??= make());
  };
  const genuine = once(async () => {
    const started = performance.now();
    const pictures = await genuineTake(source, steps, { seed: 7 });
    return { pictures, msPerPicture: (performance.now() - started) / pictures.length };
  });
  const genuineShifts = once(async () => shifts((await genuine()).pictures));
  const attacks = once(() => attackTakes(source, steps, { seed: 7 }));

  it('turns the head with depth: the nose tip moves against the face midline', async () => {
    const { pictures, msPerPicture } = await genuine();
    expect(pictures).toHaveLength(4);
    expect(msPerPicture).toBeLessThan(200);
    const [, left, right, back] = await genuineShifts();
    expect(left).toBeGreaterThan(0.07);
    expect(right).toBeLessThan(-0.07);
    expect(Math.abs(back!)).toBeLessThan(0.04);
    const { width, height } = await sharp(pictures[0]).metadata();
    expect([width, height]).toEqual([640, 400]);
    // The two neutral pictures: same pose, never the same bytes.
    expect(pictures[0]!.equals(pictures[3]!)).toBe(false);
  }, 30_000);

  it('a flat page turned in perspective moves the nose far less', async () => {
    const [, genuineLeft, genuineRight] = await genuineShifts();
    const page = (await attacks()).find(
      (a) => a.kind === 'perspective' && a.variant === 'turned-15-28',
    );
    expect(page?.pictures).toHaveLength(4);
    const [, left, right] = await shifts(page!.pictures);
    expect(Math.abs(left!)).toBeLessThan(genuineLeft! / 2);
    expect(Math.abs(right!)).toBeLessThan(-genuineRight! / 2);
  }, 30_000);

  it('makes 20 to 40 still-photo attacks of steps.length + 2 pictures', async () => {
    const made = await attacks();
    expect(made.length).toBeGreaterThanOrEqual(20);
    expect(made.length).toBeLessThanOrEqual(40);
    for (const attack of made) expect(attack.pictures).toHaveLength(steps.length + 2);
    const kinds = new Set(made.map((a) => a.kind));
    for (const kind of ['shift', 'scale', 'rotate', 'perspective', 'bend', 'shear', 'replay']) {
      expect(kinds).toContain(kind);
    }
    expect(made.some((a) => a.variant.includes('jpeg'))).toBe(true);
    expect(made.some((a) => a.variant.includes('light'))).toBe(true);
  }, 30_000);

  it('is deterministic by seed, and differs between seeds', async () => {
    const [again, other] = await Promise.all([
      genuineTake(source, steps, { seed: 7 }),
      genuineTake(source, steps, { seed: 8 }),
    ]);
    const { pictures } = await genuine();
    expect(digest(again)).toBe(digest(pictures));
    pictures.forEach((picture, i) => expect(picture.equals(other[i]!)).toBe(false));
    const [x, y] = await Promise.all([
      attackTakes(source, steps, { seed: 7 }),
      attackTakes(source, steps, { seed: 8 }),
    ]);
    const made = await attacks();
    expect(x.map((t) => digest(t.pictures))).toEqual(made.map((t) => digest(t.pictures)));
    expect(digest(y.flatMap((t) => t.pictures))).not.toBe(digest(made.flatMap((t) => t.pictures)));
  }, 30_000);

  it('builds replayed, stitched and other-face takes, and a turning clip', async () => {
    const other = await loadSource(fixturePath('dev', 'p01-3.jpg'), engine);
    const stranger = await loadSource(fixturePath('dev', 'p06-1.jpg'), engine);
    expect(other).not.toBeNull();
    expect(stranger).not.toBeNull();
    const own = await genuineTake(source, steps, { seed: 5 });
    const replay = await replayTake(source, steps, ['right', 'left'], { seed: 5 });
    expect(replay).toHaveLength(4);
    const stitched = await stitchedTake([source, other!], steps, { seed: 5 });
    expect(stitched).toHaveLength(4);
    expect(stitched[0]!.equals(own[0]!)).toBe(true);
    expect(stitched[1]!.equals(own[1]!)).toBe(false);
    const mixed = await otherFaceTake(source, stranger!, steps, { seed: 5 });
    expect(mixed.map((p, i) => p.equals(own[i]!))).toEqual([true, true, false, true]);
    const clip = await turningClip(source, { fps: 4 });
    expect(clip.length).toBeGreaterThan(30);
    expect(clip.length).toBeLessThanOrEqual(120);
  }, 30_000);
});
