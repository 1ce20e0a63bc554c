import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web', 'research'],
    // Vitest's default leaves one core to its main process (one file at a time on
    // two cores); that process mostly waits, while each file's database and face
    // work keep a core busy: every core runs a file.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
