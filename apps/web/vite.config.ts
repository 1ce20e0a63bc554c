import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './build/precompress';

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000';

/**
 * The web's test files. The root vitest.config.ts runs them as two projects:
 * `web`, whose files share their worker's loaded modules one after the other
 * (test/setup.ts starts the page-wide stores over after each test), and
 * `web-isolated`, a fresh module graph per file, for the files that replace a
 * module (`vi.mock`: a module another file already loaded would keep the real
 * one) or that watch a module load for the first time (the lazy screens) or
 * the activity log's page-wide state from its start. Sharing the modules took
 * the web tests from about 210 to 110 CPU-seconds on this 2-core machine.
 */
export const WEB_TESTS = ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'];
export const WEB_TESTS_ISOLATED = [
  'src/app/lazy-routes.test.tsx',
  'src/lib/activity/activity-log.test.ts',
  'src/components/face/facial-validation-modal.test.tsx',
  'src/components/face/use-facial-validation.test.tsx',
  'src/components/reauth-dialog.test.tsx',
  'src/features/auth/components/security-page.test.tsx',
  'src/features/auth/components/second-factor-enrolment.test.tsx',
  'src/features/auth/components/second-factor-step.test.tsx',
  'src/features/check-ins/components/viewer-checkin-page.test.tsx',
  'src/features/check-ins/components/open-room.test.tsx',
  'src/features/demo/components/demo-biometry-page.test.tsx',
  'src/features/demo/components/demo-finished-page.test.tsx',
];

export default defineConfig({
  // The production build also writes a brotli and a gzip copy of each text file.
  plugins: [react(), precompress()],
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1500 },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/app-config.js': apiTarget,
      '/docs': apiTarget,
      '/health': apiTarget,
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // Screen tests type and click through whole forms in jsdom; on a loaded
    // 2-core machine that takes seconds. A timeout only ends a stuck test: what
    // each test shows is asserted on behaviour, never on time.
    testTimeout: 20_000,
    // Each test file gets a fresh module graph: the large libraries are bundled
    // once (esbuild, cached under node_modules/.vite) instead of thousands of
    // modules read again per file. Measured on this 2-core machine: import time
    // 67 → 36 s over the 71 files, the web tests 130 → 108 s.
    deps: {
      optimizer: {
        client: {
          enabled: true,
          include: [
            '@mantine/core',
            '@mantine/hooks',
            '@mantine/dates',
            '@mantine/modals',
            '@mantine/notifications',
            '@mantine/charts',
            '@tabler/icons-react',
            'react-router',
            '@tanstack/react-query',
            'recharts',
            'dayjs',
            'dompurify',
            'qs',
          ],
        },
      },
    },
  },
});
