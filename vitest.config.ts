import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { WEB_TESTS, WEB_TESTS_ISOLATED } from './apps/web/vite.config.ts';

const web = { extends: './apps/web/vite.config.ts', root: './apps/web' } as const;

export default defineConfig({
  test: {
    projects: [
      'packages/shared',
      'apps/server',
      'research',
      {
        ...web,
        test: {
          name: 'web',
          include: WEB_TESTS,
          exclude: [...configDefaults.exclude, ...WEB_TESTS_ISOLATED],
          isolate: false,
        },
      },
      { ...web, test: { name: 'web-isolated', include: WEB_TESTS_ISOLATED } },
    ],
    // Vitest's default leaves one core to its main process (one file at a time on
    // two cores); that process mostly waits, while each file's database and face
    // work keep a core busy: every core runs a file.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
