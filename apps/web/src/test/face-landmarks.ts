/**
 * Synthetic face landmarks for screen tests of the guided capture: a generic
 * 68-point face (iBUG order, drawn from simple curves, no real person's
 * geometry) and the same face turned in 3-D by a yaw and a pitch, so that
 * `relativePose` from '@exame/shared' reads back about the angles asked.
 */

/** Depth of each point in eye distances (nose tip 0, behind negative), a generic head. */
const DEPTH: readonly number[] = [
  -1.45, -1.35, -1.22, -1.06, -0.9, -0.72, -0.56, -0.44, -0.38, -0.44, -0.56, -0.72, -0.9, -1.06,
  -1.22, -1.35, -1.45, -0.95, -0.78, -0.66, -0.58, -0.52, -0.52, -0.58, -0.66, -0.78, -0.95, -0.52,
  -0.38, -0.2, 0, -0.5, -0.4, -0.34, -0.4, -0.5, -0.88, -0.72, -0.68, -0.64, -0.72, -0.78, -0.64,
  -0.68, -0.72, -0.88, -0.78, -0.72, -0.62, -0.5, -0.42, -0.38, -0.42, -0.5, -0.62, -0.52, -0.45,
  -0.42, -0.45, -0.52, -0.6, -0.46, -0.43, -0.46, -0.6, -0.48, -0.45, -0.48,
];

type Point = [number, number];

/** Points of a generic face with eye distance 1, centred between the eyes at (0, 0); y grows down. */
function genericFace(): Point[] {
  const points: Point[] = [];
  // Jaw 0..16: from the right temple of the image's left side, down round the chin, up the other side.
  for (let i = 0; i <= 16; i++) {
    const angle = Math.PI * (i / 16);
    points.push([-Math.cos(angle) * 1.05, 0.05 + Math.sin(angle) * 1.55]);
  }
  // Brows 17..21 and 22..26.
  for (let i = 0; i < 5; i++)
    points.push([-0.95 + i * 0.18, -0.38 - Math.sin((Math.PI * i) / 4) * 0.1]);
  for (let i = 0; i < 5; i++)
    points.push([0.23 + i * 0.18, -0.38 - Math.sin((Math.PI * i) / 4) * 0.1]);
  // Nose bridge 27..30, nostrils 31..35.
  for (let i = 0; i < 4; i++) points.push([0, -0.15 + i * 0.17]);
  for (let i = 0; i < 5; i++) points.push([-0.2 + i * 0.1, 0.58 + (i === 2 ? 0.03 : 0)]);
  // Eyes 36..41 (image left) and 42..47: six points round an ellipse each.
  for (const centre of [-0.5, 0.5]) {
    for (let i = 0; i < 6; i++) {
      const angle = Math.PI + (Math.PI * 2 * i) / 6;
      points.push([centre + Math.cos(angle) * 0.2, -Math.sin(angle) * 0.07]);
    }
  }
  // Outer lips 48..59, inner lips 60..67.
  for (let i = 0; i < 12; i++) {
    const angle = Math.PI + (Math.PI * 2 * i) / 12;
    points.push([Math.cos(angle) * 0.42, 0.95 - Math.sin(angle) * 0.16]);
  }
  for (let i = 0; i < 8; i++) {
    const angle = Math.PI + (Math.PI * 2 * i) / 8;
    points.push([Math.cos(angle) * 0.3, 0.95 - Math.sin(angle) * 0.05]);
  }
  return points;
}

export type FacePose = { yaw: number; pitch: number };

/**
 * The generic face seen by a 640x400 camera, turned by `pose` (degrees;
 * yaw > 0: the person's own left, the nose towards image-right; pitch > 0:
 * looking up), as face-api's `[x0, y0, ...]` in video pixels.
 */
export function faceLandmarks(
  pose: FacePose = { yaw: 0, pitch: 0 },
  at: { x: number; y: number; eyes: number } = { x: 320, y: 170, eyes: 64 },
): number[] {
  const yaw = (pose.yaw * Math.PI) / 180;
  const pitch = (pose.pitch * Math.PI) / 180;
  return genericFace().flatMap(([x, y], i) => {
    const z = DEPTH[i] ?? 0;
    // Rotate about the vertical axis (yaw), then the horizontal one (pitch), about the nose
    // tip: the points behind it (z < 0) move the other way, so the nose leads the turn.
    const x1 = x * Math.cos(yaw) + z * Math.sin(yaw);
    const z1 = z * Math.cos(yaw) - x * Math.sin(yaw);
    const y2 = y * Math.cos(pitch) - z1 * Math.sin(pitch);
    return [at.x + x1 * at.eyes, at.y + y2 * at.eyes];
  });
}
