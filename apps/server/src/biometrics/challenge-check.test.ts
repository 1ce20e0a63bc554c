/**
 * The take check on made-up analyses (no engine): landmarks of a generic head
 * really turned (with depth), of a flat picture moved, and the scene and
 * identity signals around them. The engine's own takes are tested in
 * face-challenges.test.ts and measured by bench:liveness.
 */
import { describe, expect, it } from 'vitest';
import { eyeDistance, HEAD_DEPTHS, type FaceMove } from '@exame/shared';
import { checkTake, sceneChange, type TakeFace } from './challenge-check';

function frontal(): number[] {
  const points: Array<[number, number]> = [];
  for (let i = 0; i <= 16; i++) {
    const t = (i / 16) * Math.PI;
    points.push([-70 * Math.cos(t), 10 + 80 * Math.sin(t)]);
  }
  // prettier-ignore
  points.push(
    [-52, -28], [-42, -34], [-30, -36], [-18, -34], [-8, -30], [8, -30], [18, -34], [30, -36],
    [42, -34], [52, -28], [0, -18], [0, -6], [0, 6], [0, 18], [-12, 26], [-6, 28], [0, 29],
    [6, 28], [12, 26], [-42, -14], [-36, -18], [-28, -18], [-22, -14], [-28, -11], [-36, -11],
    [22, -14], [28, -18], [36, -18], [42, -14], [36, -11], [28, -11], [-20, 48], [-12, 44],
    [-5, 42], [0, 43], [5, 42], [12, 44], [20, 48], [12, 54], [5, 56], [0, 57], [-5, 56],
    [-12, 54], [-17, 48], [-5, 46], [0, 46], [5, 46], [17, 48], [5, 51], [0, 52], [-5, 51],
  );
  return points.flatMap(([x, y]) => [320 + x, 200 + y]);
}

const NEUTRAL = frontal();
const TURN: Record<FaceMove, [number, number]> = {
  left: [20, 0],
  right: [-20, 0],
  up: [0, 15],
  down: [0, -15],
};

function turned(yawDegrees: number, pitchDegrees: number): number[] {
  const unit = eyeDistance(NEUTRAL);
  const yaw = (yawDegrees * Math.PI) / 180;
  const pitch = (pitchDegrees * Math.PI) / 180;
  const out: number[] = [];
  for (let i = 0; i < 68; i++) {
    const x = (NEUTRAL[2 * i] ?? 0) - 320;
    const y = (NEUTRAL[2 * i + 1] ?? 0) - 200;
    const z = ((HEAD_DEPTHS[i] ?? 0) + 1) * unit;
    const x1 = x * Math.cos(yaw) + z * Math.sin(yaw);
    const z1 = -x * Math.sin(yaw) + z * Math.cos(yaw);
    out.push(320 + x1, 200 + y * Math.cos(pitch) - z1 * Math.sin(pitch));
  }
  return out;
}

function unitVector(length: number, seed: number): number[] {
  const values = Array.from(
    { length },
    (_, i) => Math.sin(seed * 12.9898 + i * 78.233) * 43758.5453,
  );
  const fractions = values.map((v) => v - Math.floor(v) - 0.5);
  const norm = Math.hypot(...fractions);
  return fractions.map((v) => v / norm);
}

/** A scene with some texture, so that a cut changes it. */
function scene(seed: number): Uint8Array {
  return Uint8Array.from({ length: 64 * 64 }, (_, i) => (((i * 37 + seed * 101) % 97) * 2) % 256);
}

function face(landmarks: number[], options: { person?: number; scene?: number } = {}): TakeFace {
  const person = options.person ?? 1;
  return {
    landmarks,
    descriptor: unitVector(128, person).map((v) => v * 0.6),
    mobileDescriptor: unitVector(192, person + 1000),
    box: { x: 240, y: 140, width: 160, height: 170 },
    imageWidth: 640,
    imageHeight: 400,
    thumbnail: scene(options.scene ?? 1),
    quality: { faceSizePx: 80, luminance: 120, sharpness: 500 },
  };
}

function take(steps: FaceMove[], shown: FaceMove[] = steps): TakeFace[] {
  return [face(NEUTRAL), ...shown.map((move) => face(turned(...TURN[move]))), face(turned(1, -1))];
}

describe('checkTake', () => {
  it('accepts a head that turns as asked, with depth, in one continuous take', () => {
    const result = checkTake(['left', 'up', 'right'], take(['left', 'up', 'right']));
    expect(result.failure).toBeNull();
    expect(result.passed).toBe(true);
    expect(result.checks).toEqual({
      sameFace: true,
      continuous: true,
      followed: true,
      depth: true,
    });
    expect(result.details.poses[0]?.yaw).toBeGreaterThan(12);
    expect(result.details.poses[1]?.pitch).toBeGreaterThan(9);
  });

  it('refuses movements in another order, naming the first step not seen', () => {
    const result = checkTake(['left', 'right'], take(['left', 'right'], ['right', 'left']));
    expect(result.passed).toBe(false);
    expect(result.failure).toEqual({ code: 'FACE_CHALLENGE_NOT_FOLLOWED', step: 1, move: 'left' });
  });

  it('refuses a still picture: nothing turns', () => {
    const still = [0, 1, 2, 3].map(() => face(NEUTRAL.map((v) => v + 3)));
    const result = checkTake(['down', 'left'], still);
    expect(result.failure?.code).toBe('FACE_CHALLENGE_NOT_FOLLOWED');
    expect(result.checks.followed).toBe(false);
  });

  it('refuses a take that does not look back at the camera at the end', () => {
    const faces = take(['up', 'down']);
    faces[3] = face(turned(25, 0));
    expect(checkTake(['up', 'down'], faces).failure).toEqual({
      code: 'FACE_CHALLENGE_NOT_FOLLOWED',
      step: 3,
      move: null,
    });
  });

  it('refuses a cut to another scene, and another face, whatever the poses', () => {
    const cut = take(['left', 'down']);
    cut[2] = face(turned(...TURN.down), { scene: 9 });
    expect(checkTake(['left', 'down'], cut).failure?.code).toBe('FACE_CHALLENGE_CUT');
    const other = take(['left', 'down']);
    other[1] = face(turned(...TURN.left), { person: 2 });
    expect(checkTake(['left', 'down'], other).failure?.code).toBe('FACE_CHALLENGE_OTHER_FACE');
  });

  it('insists on one picture per step and the two neutral ones', () => {
    expect(() => checkTake(['left', 'up'], take(['left']))).toThrow(TypeError);
  });
});

describe('sceneChange', () => {
  it('is zero for the same scene, whatever the brightness, and large for another', () => {
    const a = face(NEUTRAL);
    const brighter = { ...a, thumbnail: a.thumbnail.map((v) => Math.min(255, v + 20)) };
    expect(sceneChange(a, a)).toBe(0);
    expect(sceneChange(a, brighter)).toBeLessThan(2);
    expect(sceneChange(a, face(NEUTRAL, { scene: 9 }))).toBeGreaterThan(20);
  });
});
