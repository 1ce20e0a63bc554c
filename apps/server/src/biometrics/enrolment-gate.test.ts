import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import { devPhoto } from '../../test/faces/captures';
import { listFixtures } from '../../test/faces/fixtures';
import {
  checkEnrolmentCapture,
  DEFAULT_ENROLMENT_LIMITS,
  exceededLimits,
  measureEnrolmentCapture,
  type EnrolmentRefusalCode,
} from './enrolment-gate';
import { type FaceAnalysis } from './face-engine';
import { FacePool } from './face-pool';
import { FACE_ERRORS } from './face-errors';
import { LANDMARK_DEPTH, MEAN_FRONTAL_SHAPE } from './face-shape';
import { faceEngineSkipReason } from '../../test/faces/engine-tier';

const skipReason = faceEngineSkipReason('enrolment gate tests');

type Points = Array<[number, number]>;

function pointsOf(face: FaceAnalysis): Points {
  return Array.from({ length: 68 }, (_, i) => [
    face.landmarks[2 * i] ?? 0,
    face.landmarks[2 * i + 1] ?? 0,
  ]);
}

/** A copy of `face` whose landmarks `change` edited (in image pixels). */
function edited(face: FaceAnalysis, change: (points: Points, eyeDistance: number) => void) {
  const points = pointsOf(face);
  const centre = (from: number) =>
    [0, 1].map((k) => points.slice(from, from + 6).reduce((s, p) => s + (p[k] ?? 0), 0) / 6);
  const [rx = 0, ry = 0] = centre(36);
  const [lx = 0, ly = 0] = centre(42);
  change(points, Math.hypot(lx - rx, ly - ry));
  return { ...face, landmarks: points.flat() };
}

/** The head of LANDMARK_DEPTH turned by `yaw` and tilted by `pitch` degrees (small-angle, orthographic). */
function turned(face: FaceAnalysis, yaw: number, pitch: number): FaceAnalysis {
  const [sy, cy] = [Math.sin((yaw * Math.PI) / 180), Math.cos((yaw * Math.PI) / 180)];
  const [sp, cp] = [Math.sin((pitch * Math.PI) / 180), Math.cos((pitch * Math.PI) / 180)];
  return edited(face, (points, e) => {
    const [nx, ny] = points[30] ?? [0, 0];
    points.forEach((p, i) => {
      const z = (LANDMARK_DEPTH[i] ?? 0) * e;
      p[0] = nx + (p[0] - nx) * cy + z * sy;
      p[1] = ny + (p[1] - ny) * cp - z * sp;
    });
  });
}

function rotated(face: FaceAnalysis, degrees: number): FaceAnalysis {
  const [s, c] = [Math.sin((degrees * Math.PI) / 180), Math.cos((degrees * Math.PI) / 180)];
  return edited(face, (points) => {
    const [cx, cy] = points[30] ?? [0, 0];
    for (const p of points) {
      const [dx, dy] = [p[0] - cx, p[1] - cy];
      p[0] = cx + dx * c - dy * s;
      p[1] = cy + dx * s + dy * c;
    }
  });
}

function expectRefused(face: FaceAnalysis, code: EnrolmentRefusalCode, limit?: string) {
  const check = checkEnrolmentCapture(face);
  expect(check.ok ? 'accepted' : check.code).toBe(code);
  if (limit) expect(exceededLimits(check.measures)).toContain(limit);
}

describe('enrolment gate without the engine', () => {
  const side = 200;
  // The mean frontal face itself, 200 px between the eyes, as a capture.
  const meanFace = {
    landmarks: MEAN_FRONTAL_SHAPE.flatMap(([x, y]) => [320 + x * side, 200 + y * side]),
    quality: { faceSizePx: 240, luminance: 128, sharpness: 600 },
    detectionScore: 0.99,
  } as unknown as FaceAnalysis;

  it('measures the mean frontal face as frontal, neutral and fitting its own shape', () => {
    const m = measureEnrolmentCapture(meanFace);
    expect(Math.abs(m.yaw)).toBeLessThan(0.5);
    expect(Math.abs(m.pitch)).toBeLessThan(0.5);
    expect(Math.abs(m.roll)).toBeLessThan(0.01);
    expect(m.shapeMisfit).toBeLessThan(0.001);
    expect(m.mouthDistortion).toBeLessThan(0.001);
    expect(checkEnrolmentCapture(meanFace).ok).toBe(true);
  });

  it('reads a known turn of the generic head back in degrees', () => {
    for (const [yaw, pitch] of [
      [10, 0],
      [-20, 0],
      [0, 12],
      [0, -18],
      [8, 8],
    ] as const) {
      const m = measureEnrolmentCapture(turned(meanFace, yaw, pitch));
      expect(m.yaw, `yaw ${yaw}, pitch ${pitch}`).toBeCloseTo(yaw, -0.5);
      expect(m.pitch, `yaw ${yaw}, pitch ${pitch}`).toBeCloseTo(pitch, -0.5);
      expect(m.shapeMisfit).toBeLessThan(0.02);
    }
  });

  it('refuses degenerate landmarks as occluded rather than throwing', () => {
    const broken = { ...meanFace, landmarks: meanFace.landmarks.map(() => Number.NaN) };
    expectRefused(broken, 'FACE_ENROL_OCCLUDED');
    const collapsed = { ...meanFace, landmarks: meanFace.landmarks.map(() => 5) };
    expectRefused(collapsed, 'FACE_ENROL_OCCLUDED');
  });

  it('has a pt-BR message for every refusal', () => {
    for (const code of [
      'FACE_ENROL_EXPRESSION',
      'FACE_ENROL_POSE',
      'FACE_ENROL_BLURRED',
      'FACE_ENROL_TOO_SMALL',
      'FACE_ENROL_OCCLUDED',
    ] as const) {
      expect(FACE_ERRORS[code].status).toBe(422);
      expect(FACE_ERRORS[code].message).toMatch(/cadastro|rosto/);
    }
  });
});

describe.skipIf(Boolean(skipReason))(
  `enrolment gate on the dev photos ${skipReason}`.trim(),
  () => {
    let engine: FacePool;
    const faces = new Map<string, FaceAnalysis | string>();
    const face = (file: string): FaceAnalysis => {
      const found = faces.get(file);
      if (!found || typeof found === 'string')
        throw new Error(`${file}: ${found ?? 'not analysed'}`);
      return found;
    };

    beforeAll(async () => {
      engine = new FacePool({ inProcess: true });
      await engine.ready();
      for (const photo of listFixtures('dev')) {
        try {
          faces.set(photo.file, await engine.analyze(await devPhoto(photo.file)));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          faces.set(photo.file, error.code);
        }
      }
    }, 180_000);

    afterAll(async () => {
      await engine?.close();
    });

    it('measures every dev photo where the engine finds a face with finite numbers', () => {
      const found = [...faces.values()].filter((f): f is FaceAnalysis => typeof f !== 'string');
      expect(found.length).toBeGreaterThanOrEqual(19);
      for (const f of found) {
        for (const [name, value] of Object.entries(measureEnrolmentCapture(f))) {
          expect(Number.isFinite(value), name).toBe(true);
        }
      }
    });

    it('accepts neutral frontal dev photos', () => {
      for (const file of ['p01-1.jpg', 'p01-3.jpg', 'p02-4.jpg', 'p05-1.jpg', 'p06-1.jpg']) {
        const check = checkEnrolmentCapture(face(file));
        expect(check.ok ? [] : exceededLimits(check.measures), file).toEqual([]);
      }
    });

    it('refuses the grimace and the tongue out as expression', () => {
      expectRefused(face('p01-4.jpg'), 'FACE_ENROL_EXPRESSION', 'maxMouthOpening');
      expectRefused(face('p01-4.jpg'), 'FACE_ENROL_EXPRESSION', 'maxMouthDistortion');
      expectRefused(face('p01-6.jpg'), 'FACE_ENROL_EXPRESSION', 'maxMouthOpening');
    });

    it('refuses turned and tilted heads as pose', () => {
      expectRefused(face('p01-2.jpg'), 'FACE_ENROL_POSE', 'maxYaw');
      expectRefused(face('p02-3.jpg'), 'FACE_ENROL_POSE', 'maxYaw');
      expectRefused(face('p08-1.jpg'), 'FACE_ENROL_POSE', 'maxRoll');
      expect(measureEnrolmentCapture(face('p01-2.jpg')).yaw).toBeGreaterThan(15);
      expect(measureEnrolmentCapture(face('p02-3.jpg')).yaw).toBeLessThan(-15);
    });

    it('refuses a small or blurred face that the engine itself accepts', () => {
      const p011 = face('p01-1.jpg');
      expectRefused(
        { ...p011, quality: { ...p011.quality, faceSizePx: 35 } },
        'FACE_ENROL_TOO_SMALL',
      );
      expectRefused(
        { ...p011, quality: { ...p011.quality, sharpness: 180 } },
        'FACE_ENROL_BLURRED',
      );
    });

    it('refuses closed eyes', () => {
      const closed = edited(face('p01-1.jpg'), (p) => {
        for (const [upper, lower] of [
          [37, 41],
          [38, 40],
          [43, 47],
          [44, 46],
        ] as const) {
          const lid = p[upper];
          if (lid) lid[1] = (p[lower]?.[1] ?? 0) - 1;
        }
      });
      expectRefused(closed, 'FACE_ENROL_EXPRESSION', 'minEyeOpenness');
    });

    it('refuses an open mouth', () => {
      const open = edited(face('p01-1.jpg'), (p, e) => {
        for (const i of [56, 57, 58, 65, 66, 67]) {
          const point = p[i];
          if (point) point[1] += 0.3 * e;
        }
      });
      expectRefused(open, 'FACE_ENROL_EXPRESSION', 'maxMouthOpening');
    });

    it('refuses a one-sided smile', () => {
      const smirk = edited(face('p01-1.jpg'), (p, e) => {
        for (const i of [53, 54, 55, 64]) {
          const point = p[i];
          if (point) point[1] -= 0.12 * e;
        }
      });
      expectRefused(smirk, 'FACE_ENROL_EXPRESSION', 'maxMouthTilt');
    });

    it('refuses a head turned, tilted or rotated beyond 15 degrees, and accepts a little', () => {
      const p011 = face('p01-1.jpg');
      expectRefused(turned(p011, 25, 0), 'FACE_ENROL_POSE', 'maxYaw');
      expectRefused(turned(p011, -25, 0), 'FACE_ENROL_POSE', 'maxYaw');
      expectRefused(turned(p011, 0, -22), 'FACE_ENROL_POSE', 'maxPitch');
      expectRefused(rotated(p011, 22), 'FACE_ENROL_POSE', 'maxRoll');
      expect(checkEnrolmentCapture(turned(p011, 8, 0)).ok).toBe(true);
      expect(checkEnrolmentCapture(rotated(p011, -10)).ok).toBe(true);
      expect(measureEnrolmentCapture(rotated(p011, -10)).roll).toBeCloseTo(
        measureEnrolmentCapture(p011).roll - 10,
        6,
      );
    });

    it('refuses a bent face outline as occluded', () => {
      // What a hand over one cheek does to the predicted outline: the jaw below
      // the nose pulled in towards the face's middle.
      const bent = edited(face('p01-1.jpg'), (p, e) => {
        for (const i of [4, 5, 6, 7]) {
          const point = p[i];
          if (point) point[0] += 0.35 * e;
        }
      });
      const check = checkEnrolmentCapture(bent);
      expect(check.ok ? 'accepted' : check.code).toBe('FACE_ENROL_OCCLUDED');
      expect(exceededLimits(check.measures)).toEqual(['maxShapeMisfit']);
    });

    it('takes other limits when given', () => {
      const lenient = {
        ...DEFAULT_ENROLMENT_LIMITS,
        maxMouthOpening: 0.5,
        maxMouthDistortion: 0.2,
      };
      expect(checkEnrolmentCapture(face('p01-4.jpg'), lenient).ok).toBe(true);
    });
  },
);
