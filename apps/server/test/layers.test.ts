/**
 * The import rules of .dependency-cruiser.cjs (run by `npm run lint`) fail
 * on what they forbid: a small tree of files, written to a temporary folder
 * with the project's paths, breaks each kind of rule once and is cruised
 * with the real configuration. Then the real tree: no violation at all.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const CONFIG = path.join(repoRoot, '.dependency-cruiser.cjs');
const ROOTS = [
  'packages/shared/src',
  'packages/shared/test',
  'apps/server/src',
  'apps/server/test',
  'apps/web/src',
];

/** Each fixture file, by path under the temporary root, with its text. */
const FIXTURE: Record<string, string> = {
  // A lower layer importing a higher one: lib -> modules, config -> biometrics, plugins -> modules.
  'apps/server/src/lib/upward.ts': "export { findUser } from '../modules/users/users.service';\n",
  'apps/server/src/config/env.ts':
    "export { DEFAULT_FACE_MATCH_THRESHOLD } from '../biometrics/descriptor';\n",
  'apps/server/src/biometrics/descriptor.ts': 'export const DEFAULT_FACE_MATCH_THRESHOLD = 0.69;\n',
  'apps/server/src/plugins/auth.ts':
    "export { findSession } from '../modules/auth/sessions.repository';\n",
  'apps/server/src/modules/auth/sessions.repository.ts': 'export const findSession = 1;\n',
  // A loop between two files made of type-only imports (they count too).
  'apps/server/src/lib/loop-a.ts': "import type { B } from './loop-b';\nexport type A = B[];\n",
  'apps/server/src/lib/loop-b.ts':
    "import type { A } from './loop-a';\nexport type B = A | null;\n",
  // Modules: users is below exams (MODULE_ORDER), so users -> exams is a loop in the making;
  // exams reaches into users' repository instead of its service.
  'apps/server/src/modules/users/users.service.ts':
    "export { listExams } from '../exams/exams.service';\nexport const findUser = 1;\n",
  'apps/server/src/modules/exams/exams.service.ts':
    "export { findUserRow } from '../users/users.repository';\nexport const listExams = 1;\n",
  'apps/server/src/modules/users/users.repository.ts': 'export const findUserRow = 1;\n',
  // SQL outside a repository: a route file importing the tables.
  'apps/server/src/modules/exams/exams.routes.ts':
    "export { exams } from '../../db/schema/index';\n",
  'apps/server/src/db/schema/index.ts': 'export const exams = 1;\n',
  // Web: a feature importing another; the shared package importing the web app.
  'apps/web/src/features/audits/page.tsx': "export { Board } from '../exams/board';\n",
  'apps/web/src/features/exams/board.tsx': 'export const Board = 1;\n',
  'packages/shared/src/index.ts':
    "export { Board } from '../../../apps/web/src/features/exams/board';\n",
  // The server importing the face studies.
  'apps/server/src/biometrics/crops.ts':
    "export { STUDY_CROPS } from '../../../../research/face/crops';\n",
  'research/face/crops.ts': 'export const STUDY_CROPS = [];\n',
};

async function cruiseWithConfig(baseDir: string, roots: string[]): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(CONFIG);
  const result = await cruise(roots, { ...options, baseDir });
  return result.output as ICruiseResult;
}

describe('import rules (.dependency-cruiser.cjs)', () => {
  let fixtureRoot: string;

  beforeAll(() => {
    fixtureRoot = mkdtempSync(path.join(tmpdir(), 'layers-'));
    for (const [file, text] of Object.entries(FIXTURE)) {
      const full = path.join(fixtureRoot, file);
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, text);
    }
  });
  afterAll(() => rmSync(fixtureRoot, { recursive: true, force: true }));

  it('reports an upward import, a loop, a module door, SQL outside a repository, the web layers and research', async () => {
    const result = await cruiseWithConfig(fixtureRoot, ['apps', 'packages']);
    const found = result.summary.violations
      .filter((violation) => violation.rule.severity === 'error')
      .map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
    const s = 'apps/server/src';
    expect(found).toEqual(
      expect.arrayContaining([
        `server-lib-imports-upward: ${s}/lib/upward.ts -> ${s}/modules/users/users.service.ts`,
        `server-config-imports-upward: ${s}/config/env.ts -> ${s}/biometrics/descriptor.ts`,
        `server-plugins-imports-upward: ${s}/plugins/auth.ts -> ${s}/modules/auth/sessions.repository.ts`,
        `no-circular: ${s}/lib/loop-a.ts -> ${s}/lib/loop-b.ts`,
        `module-imports-higher-module: ${s}/modules/users/users.service.ts -> ${s}/modules/exams/exams.service.ts`,
        `module-imports-module-internals: ${s}/modules/exams/exams.service.ts -> ${s}/modules/users/users.repository.ts`,
        `sql-only-in-repositories: ${s}/modules/exams/exams.routes.ts -> ${s}/db/schema/index.ts`,
        'web-feature-imports-other-feature: apps/web/src/features/audits/page.tsx -> apps/web/src/features/exams/board.tsx',
        'shared-imports-app: packages/shared/src/index.ts -> apps/web/src/features/exams/board.tsx',
        `server-imports-research: ${s}/biometrics/crops.ts -> research/face/crops.ts`,
      ]),
    );
  });

  it('finds no violation in the real tree', async () => {
    const result = await cruiseWithConfig(repoRoot, ROOTS);
    const errors = result.summary.violations
      .filter((violation) => violation.rule.severity === 'error')
      .map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
    expect(errors).toEqual([]);
    expect(result.summary.totalCruised).toBeGreaterThan(500);
  });
});
