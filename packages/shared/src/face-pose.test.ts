import { describe, expect, it } from 'vitest';
import { eyeDistance, HEAD_DEPTHS, looksAhead, relativePose } from './face-pose';

/**
 * A frontal layout of the 68 points (iBUG order), roughly a face 140 px wide
 * with eyes 64 px apart, and a head made of it with the generic depths.
 */
function frontal(): number[] {
  const points: Array<[number, number]> = [];
  for (let i = 0; i <= 16; i++) {
    const t = (i / 16) * Math.PI;
    points.push([-70 * Math.cos(t), 10 + 80 * Math.sin(t)]);
  }
  const rest: Array<[number, number]> = [
    [-52, -28],
    [-42, -34],
    [-30, -36],
    [-18, -34],
    [-8, -30],
    [8, -30],
    [18, -34],
    [30, -36],
    [42, -34],
    [52, -28],
    [0, -18],
    [0, -6],
    [0, 6],
    [0, 18],
    [-12, 26],
    [-6, 28],
    [0, 29],
    [6, 28],
    [12, 26],
    [-42, -14],
    [-36, -18],
    [-28, -18],
    [-22, -14],
    [-28, -11],
    [-36, -11],
    [22, -14],
    [28, -18],
    [36, -18],
    [42, -14],
    [36, -11],
    [28, -11],
    [-20, 48],
    [-12, 44],
    [-5, 42],
    [0, 43],
    [5, 42],
    [12, 44],
    [20, 48],
    [12, 54],
    [5, 56],
    [0, 57],
    [-5, 56],
    [-12, 54],
    [-17, 48],
    [-5, 46],
    [0, 46],
    [5, 46],
    [17, 48],
    [5, 51],
    [0, 52],
    [-5, 51],
  ];
  points.push(...rest);
  return points.flatMap(([x, y]) => [320 + x, 200 + y]);
}

/** The head turned by yaw (its own left > 0) and pitch (up > 0), orthographic, around a pivot behind the face. */
function turned(neutral: number[], yawDegrees: number, pitchDegrees: number): number[] {
  const unit = eyeDistance(neutral);
  const yaw = (yawDegrees * Math.PI) / 180;
  const pitch = (pitchDegrees * Math.PI) / 180;
  const out: number[] = [];
  for (let i = 0; i < 68; i++) {
    const x = (neutral[2 * i] ?? 0) - 320;
    const y = (neutral[2 * i + 1] ?? 0) - 200;
    const z = ((HEAD_DEPTHS[i] ?? 0) + 1) * unit;
    const x1 = x * Math.cos(yaw) + z * Math.sin(yaw);
    const z1 = -x * Math.sin(yaw) + z * Math.cos(yaw);
    const y1 = y * Math.cos(pitch) - z1 * Math.sin(pitch);
    out.push(320 + x1, 200 + y1);
  }
  return out;
}

/** The same points on a flat page turned about its vertical axis, seen by a pinhole camera. */
function pageTurned(neutral: number[], degrees: number, focal = 600, distance = 450): number[] {
  const angle = (degrees * Math.PI) / 180;
  const out: number[] = [];
  for (let i = 0; i < 68; i++) {
    const x = (neutral[2 * i] ?? 0) - 320;
    const y = (neutral[2 * i + 1] ?? 0) - 200;
    const depth = distance + x * Math.sin(angle);
    out.push(320 + (focal * x * Math.cos(angle)) / depth, 200 + (focal * y) / depth);
  }
  return out;
}

describe('relativePose', () => {
  const neutral = frontal();

  it('reads a head turn to the left, right, up and down with its sign', () => {
    expect(relativePose(neutral, turned(neutral, 20, 0)).yaw).toBeGreaterThan(15);
    expect(relativePose(neutral, turned(neutral, -20, 0)).yaw).toBeLessThan(-15);
    expect(relativePose(neutral, turned(neutral, 0, 15)).pitch).toBeGreaterThan(10);
    expect(relativePose(neutral, turned(neutral, 0, -15)).pitch).toBeLessThan(-10);
    const left = relativePose(neutral, turned(neutral, 20, 0));
    expect(Math.abs(left.pitch)).toBeLessThan(1);
    expect(left.fit).toBeGreaterThan(0.99);
  });

  it('grows with the turn', () => {
    const small = relativePose(neutral, turned(neutral, 10, 0)).yaw;
    const large = relativePose(neutral, turned(neutral, 25, 0)).yaw;
    expect(large).toBeGreaterThan(small * 2);
  });

  it('sees no turn in a flat picture moved, scaled, rotated or tilted in perspective', () => {
    const moved = neutral.map((v, i) => (i % 2 === 0 ? v * 1.1 + 12 : v * 1.1 - 7));
    const rotated: number[] = [];
    const a = (8 * Math.PI) / 180;
    for (let i = 0; i < 68; i++) {
      const x = (neutral[2 * i] ?? 0) - 320;
      const y = (neutral[2 * i + 1] ?? 0) - 200;
      rotated.push(
        320 + x * Math.cos(a) - y * Math.sin(a),
        200 + x * Math.sin(a) + y * Math.cos(a),
      );
    }
    for (const frame of [moved, rotated, pageTurned(neutral, 35)]) {
      const pose = relativePose(neutral, frame);
      expect(Math.abs(pose.yaw)).toBeLessThan(3);
      expect(Math.abs(pose.pitch)).toBeLessThan(3);
      expect(Math.abs(pose.depthRelief.midline.yaw)).toBeLessThan(0.02);
      expect(Math.abs(pose.depthRelief.lateral.yaw)).toBeLessThan(0.03);
    }
  });

  it('refuses sets that are not 68 points', () => {
    expect(() => relativePose(neutral.slice(2), neutral)).toThrow(TypeError);
  });
});

describe('depthRelief', () => {
  const neutral = frontal();

  it('shows the nose standing out of the midline and of the outline when a head turns', () => {
    const left = relativePose(neutral, turned(neutral, 20, 0)).depthRelief;
    expect(left.midline.yaw).toBeGreaterThan(0.1);
    expect(left.lateral.yaw).toBeGreaterThan(0.2);
    const up = relativePose(neutral, turned(neutral, 0, 15)).depthRelief;
    expect(up.midline.pitch).toBeGreaterThan(0.08);
    expect(up.lateral.pitch).toBeGreaterThan(0.2);
    expect(relativePose(neutral, turned(neutral, -20, 0)).depthRelief.midline.yaw).toBeLessThan(
      -0.1,
    );
  });

  it('keeps the nose on the midline of a flat page, however it is turned', () => {
    const page = relativePose(neutral, pageTurned(neutral, 40)).depthRelief;
    expect(Math.abs(page.midline.yaw)).toBeLessThan(0.01);
    expect(Math.abs(page.midline.pitch)).toBeLessThan(0.01);
  });
});

describe('looksAhead', () => {
  const neutral = frontal();

  it('is true for a frontal face and a small turn, false past about 13 degrees', () => {
    expect(looksAhead(neutral)).toBe(true);
    expect(looksAhead(turned(neutral, 6, 0))).toBe(true);
    expect(looksAhead(turned(neutral, 25, 0))).toBe(false);
    expect(looksAhead(turned(neutral, -25, 0))).toBe(false);
    expect(looksAhead(neutral.slice(2))).toBe(false);
  });
});
