/**
 * Once per end-to-end run: the compiled server is there and current (the
 * specs run `apps/server/dist/main.js`, made by `npm run build`, which
 * `npm run test:e2e` runs first), and a folder for the data folders that
 * specs start from (support/server.ts). The first spec of a kind (same first-start
 * settings) starts a server on an empty folder, which migrates and seeds;
 * its stopped copy is kept here, and the next specs of that kind start on a
 * copy of it instead of migrating and seeding again. Removed when the run ends.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { serverBuildState } from '../../apps/server/build/server-build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the seeded data folders of this run are kept. */
    dataTemplates: string;
    /** The file key of every server of this run (the files of a copied folder are sealed with it). */
    runFileKey: string;
  }
}

export default function setup(project: TestProject): () => void {
  const build = serverBuildState();
  if (build !== 'current') {
    throw new Error(
      build === 'missing'
        ? 'O servidor não foi compilado: rode `npm run build` antes dos testes e2e.'
        : 'O servidor compilado é mais antigo que as fontes: rode `npm run build` antes dos testes e2e.',
    );
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-e2e-templates-'));
  project.provide('dataTemplates', folder);
  project.provide('runFileKey', randomBytes(32).toString('base64'));
  return () => fs.rmSync(folder, { recursive: true, force: true });
}
