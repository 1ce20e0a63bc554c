import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One migrated database per run, copied by every file (test/helper.ts).
    globalSetup: ['test/global-setup.ts'],
    // The server tests mock nothing and each opens its own app and database:
    // a worker keeps its loaded modules from one file to the next.
    isolate: false,
    // Each file opens its own database; PGlite start-up is CPU-bound.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test' },
  },
});
