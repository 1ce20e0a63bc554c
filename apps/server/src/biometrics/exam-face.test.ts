/**
 * The face of who sat an exam, from its captures (dev photos, real engine):
 * the captures of one person are averaged, another person's capture is left
 * out, and the two closest captures of two exams are found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devPhoto } from '../../test/faces/captures';
import { closestCaptures, examFaceOf, type CaptureFace } from './exam-face';
import { faceDistance, templateOf } from './face-engine';
import { createFaceService } from './face-pool';
import type { FaceService } from './face-engine';

describe('exam face', () => {
  let face: FaceService;
  const captures = new Map<string, CaptureFace>();

  beforeAll(async () => {
    face = await createFaceService({ inProcess: true });
    for (const file of ['p01-1.jpg', 'p01-2.jpg', 'p01-3.jpg', 'p01-5.jpg', 'p02-1.jpg']) {
      captures.set(file, {
        id: file,
        descriptor: templateOf(await face.analyze(await devPhoto(file))),
      });
    }
  }, 120_000);
  afterAll(() => face?.close());

  const of = (...files: string[]) => files.map((file) => captures.get(file)!);

  it('averages the captures of the person in front of the camera, leaving another face out', () => {
    const made = examFaceOf(of('p01-1.jpg', 'p02-1.jpg', 'p01-2.jpg'));
    expect(made?.captureIds).toEqual(['p01-1.jpg', 'p01-2.jpg']);
    // The mean is closer to another exam of the same person than either capture alone.
    const other = examFaceOf(of('p01-3.jpg', 'p01-5.jpg'))!;
    const mean = faceDistance(made!.descriptor, other.descriptor);
    const single = faceDistance(captures.get('p01-1.jpg')!.descriptor, other.descriptor);
    expect(mean).toBeLessThan(single);
  });

  it('is nothing without a usable capture, and one capture alone is itself', () => {
    expect(examFaceOf([])).toBeNull();
    expect(examFaceOf([{ id: 'x', descriptor: [1, 2, 3] }])).toBeNull();
    const alone = examFaceOf(of('p02-1.jpg'))!;
    expect(alone.captureIds).toEqual(['p02-1.jpg']);
    expect(faceDistance(alone.descriptor, captures.get('p02-1.jpg')!.descriptor)).toBeLessThan(
      1e-6,
    );
  });

  it('finds the two most alike captures of two exams', () => {
    const closest = closestCaptures(of('p02-1.jpg', 'p01-1.jpg'), of('p01-2.jpg', 'p01-3.jpg'))!;
    expect(closest.a).toBe('p01-1.jpg');
    expect(['p01-2.jpg', 'p01-3.jpg']).toContain(closest.b);
    expect(closestCaptures([], of('p01-2.jpg'))).toBeNull();
  });
});
