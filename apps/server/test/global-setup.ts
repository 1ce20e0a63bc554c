/**
 * Once per test run: one migrated database that every test file's database
 * starts from, instead of running the migrations again for each file, and a
 * folder where the face takes the check accepted are noted (test/faces/takes.ts). On
 * PGlite a dump of its data folder (a tar) that each file loads; on
 * PostgreSQL a template database that each file's `CREATE DATABASE` copies.
 * Dropped when the run ends.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { ensureReferenceData } from '../src/db/seed/reference-data';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: the migrated data folder's tar file. PostgreSQL: the template database's name. */
    migratedTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const takes = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-test-takes-'));
  project.provide('faceTakeCache', takes);
  const removeTakes = () => fs.rmSync(takes, { recursive: true, force: true });
  const url = process.env.TEST_DATABASE_URL?.trim();
  if (!url) {
    const database = await openDatabase({ kind: 'pglite', dataDir: 'memory' });
    await database.migrate();
    await ensureReferenceData(database.db);
    const dump = await database.dumpDataDir!();
    await database.close();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-test-template-'));
    const file = path.join(folder, 'migrated.tar');
    fs.writeFileSync(file, dump);
    project.provide('migratedTemplate', file);
    return async () => {
      fs.rmSync(folder, { recursive: true, force: true });
      removeTakes();
    };
  }
  const name = `test_template_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: target.toString(), poolSize: 1 });
  await database.migrate();
  await ensureReferenceData(database.db);
  await database.close();
  project.provide('migratedTemplate', name);
  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    removeTakes();
  };
}
