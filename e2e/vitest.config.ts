import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['specs/**/*.e2e.test.ts'],
    environment: 'node',
    // Seeded data folders shared by the specs of a run (support/server.ts).
    globalSetup: ['support/global-setup.ts'],
    // One browser and one server at a time: the machine has two cores.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A screen answers within a second on a quiet machine, not always while the
    // whole suite runs: expect.poll waits up to 10 s (a wrong end state still fails).
    expect: { poll: { timeout: 10_000 } },
  },
});
