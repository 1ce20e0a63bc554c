import { defineConfig } from 'vitest/config';

/**
 * The specs that run alone, after the others: those that failed when another
 * Chromium and server shared the two cores with them (an identity provider's
 * round trips, a layout measured right after a resize). The camera specs
 * (check-in, face, demo) mostly wait on their clips, which play in real
 * time: they share the machine well.
 */
const ALONE = ['specs/sso.e2e.test.ts', 'specs/second-factor.e2e.test.ts'];

const shared = {
  root: import.meta.dirname,
  environment: 'node',
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // A screen answers within a second on a quiet machine, not always while the
  // whole suite runs: expect.poll waits up to 10 s (a wrong end state still fails).
  expect: { poll: { timeout: 10_000 } },
} as const;

export default defineConfig({
  test: {
    root: import.meta.dirname,
    // Seeded data folders shared by the specs of a run (support/server.ts).
    globalSetup: ['support/global-setup.ts'],
    projects: [
      {
        // Two specs at a time: while one waits (a camera clip plays in real
        // time, a page polls), the other has the cores.
        test: {
          ...shared,
          name: 'e2e',
          include: ['specs/**/*.e2e.test.ts'],
          exclude: ALONE,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'e2e-alone',
          include: ALONE,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
