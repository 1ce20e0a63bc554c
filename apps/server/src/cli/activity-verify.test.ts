/**
 * `npm run activity:verify` as the operator runs it: on the configured
 * database (the test's PostgreSQL database, or an embedded one in a folder),
 * one line per chain, exit 1 on a broken link, and never the embedded
 * database's files under a running server.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, engineName } from '../../test/helper';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { insertActivity } from '../modules/activity/activity.repository';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const SLOW = 120_000;

describe(`npm run activity:verify on ${engineName}`, () => {
  let work: string;
  let handle: (DatabaseHandle & { drop?: () => Promise<void>; url?: string }) | undefined;
  let env: Record<string, string>;

  /** The database the command will open: reopened between runs for PGlite (one process at a time). */
  async function open(): Promise<DatabaseHandle> {
    if (handle) return handle;
    handle = await openDatabase({ kind: 'pglite', dataDir: path.join(work, 'data', 'pgdata') });
    await handle.migrate();
    return handle;
  }
  async function release(): Promise<void> {
    if (handle && !handle.url) {
      await handle.close();
      handle = undefined;
    }
  }
  const cli = () =>
    run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/activity-verify.ts'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    });

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'activity-verify-'));
    if (engineName === 'postgres') {
      const database = await createTestDatabase();
      handle = database;
      env = { DATABASE_URL: database.url!, DATA_DIR: path.join(work, 'data') };
    } else {
      env = { DATA_DIR: path.join(work, 'data') };
    }
    const db = (await open()).db;
    for (const unit of ['DF', 'SP', null]) {
      await insertActivity(db, { type: 'retention_purge', actorId: null, federativeUnit: unit });
      await insertActivity(db, { type: 'load_exam', actorId: null, federativeUnit: unit });
    }
    await release();
  }, SLOW);
  afterAll(async () => {
    if (handle?.url) await (handle as { drop: () => Promise<void> }).drop();
    else await release();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it(
    'prints every chain and exits 0; a changed row exits 1 naming the first broken link',
    async () => {
      const good = await cli();
      expect(good.stdout).toMatch(/DF\s+íntegra\s+2 evento\(s\)/);
      expect(good.stdout).toMatch(/SP\s+íntegra\s+2 evento\(s\)/);
      expect(good.stdout).toMatch(/\(sem UF\)\s+íntegra\s+2 evento\(s\)/);

      const db = (await open()).db;
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(
          sql`update activity_log set type = 'page_view' where federative_unit = 'SP' and seq = 2`,
        );
      });
      await release();
      const failed = cli();
      await expect(failed).rejects.toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/SP\s+QUEBRADA\s+1 evento\(s\) conferidos antes do elo nº 2/),
      });
      await expect(failed).rejects.toMatchObject({
        stdout: expect.stringMatching(/DF\s+íntegra/),
      });
    },
    SLOW,
  );

  it.runIf(engineName === 'pglite')(
    'refuses to open the embedded database under a running server',
    async () => {
      // A live process (this one) holds the folder as a server, with no operator token to ask it.
      fs.writeFileSync(
        path.join(work, 'data', 'server.lock'),
        JSON.stringify({ pid: process.pid, role: 'server', since: new Date().toISOString() }),
      );
      try {
        await expect(cli()).rejects.toMatchObject({
          code: 2,
          stderr: expect.stringContaining('Um servidor (processo'),
        });
      } finally {
        fs.rmSync(path.join(work, 'data', 'server.lock'));
      }
    },
    SLOW,
  );
});
