import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'research',
    environment: 'node',
    include: ['face/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test' },
  },
});
