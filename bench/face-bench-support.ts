/**
 * What the face benchmarks share: how they print times and ratios, and their
 * skip when the holdout photos are not on this machine.
 */
import { fixtureDir, hasFaceFixtures } from '../apps/server/test/faces/fixtures';

export const ms = (x: number) => `${x.toFixed(0)} ms`;
export const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');

/** Whether the holdout photos are there; without them, says the run is skipped. */
export function hasHoldoutOrSkip(): boolean {
  if (hasFaceFixtures('holdout')) return true;
  console.log(
    `SKIPPED: face fixtures not found at ${fixtureDir('holdout')} (set FACE_FIXTURES_DIR).`,
  );
  return false;
}
