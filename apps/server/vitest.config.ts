import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One migrated database per run, copied by every file (test/helper.ts).
    globalSetup: ['test/global-setup.ts'],
    // Each file opens its own database; PGlite start-up is CPU-bound.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test' },
  },
});
