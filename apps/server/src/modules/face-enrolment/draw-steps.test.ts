import { describe, expect, it } from 'vitest';
import { FACE_MOVES } from '@exame/shared';
import { drawSteps } from './face-challenges.service';

describe('drawSteps', () => {
  it('draws two or three different movements, in every order and count over many draws', () => {
    const seen = new Set<string>();
    const counts = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const steps = drawSteps();
      expect(steps.length === 2 || steps.length === 3).toBe(true);
      expect(new Set(steps).size).toBe(steps.length);
      for (const step of steps) expect(FACE_MOVES).toContain(step);
      seen.add(steps.join(','));
      counts.add(steps.length);
    }
    // 4x3 ordered pairs and 4x3x2 ordered triples: all of them come up.
    expect(seen.size).toBe(12 + 24);
    expect([...counts].sort()).toEqual([2, 3]);
  });

  it('follows the random source it is given', () => {
    expect(drawSteps(() => 0)).toEqual(['left', 'right']);
    expect(drawSteps((max) => max - 1)).toEqual(['down', 'up', 'right']);
  });
});
