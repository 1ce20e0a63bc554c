/** The one-time conversion of sealed data to the bound format (see sealed-data-upgrade.ts). */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helper';
import { createFileStorage, templateAad, type FileStorage } from '../lib/file-storage';
import { legacySeal } from '../../test/sealing';
import { selectRows } from './select-rows';
import { ensureReferenceData } from './seed/reference-data';
import { upgradeSealedData } from './sealed-data-upgrade';

describe('sealed data upgrade', () => {
  const key = randomBytes(32);
  let root: string;
  let files: FileStorage;
  let database: TestDatabase;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'exame-upgrade-'));
    files = createFileStorage({ root, key });
    database = await createTestDatabase();
    await ensureReferenceData(database.db);
  });
  afterAll(async () => {
    await database.drop();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('reseals old templates and files bound to their owner, once', async () => {
    const cpf = '52998224725';
    const current = await files.put(Buffer.from('já no formato novo'));
    const old = await files.put(Buffer.from('x'));
    await fs.writeFile(
      path.join(root, old.slice(0, 2), `${old}.bin`),
      legacySeal(key, Buffer.from('foto antiga')),
    );
    const legacyTemplate = legacySeal(key, Buffer.from('[[0.5]]')).toString('base64');
    await database.db.execute(
      sql`insert into biometric_templates (federative_unit, cpf, template_sealed, image_keys)
          values ('DF', ${cpf}, ${legacyTemplate}, ${JSON.stringify([old])}::jsonb)`,
    );

    expect(await upgradeSealedData(database.db, files)).toEqual({
      templates: 1,
      files: 1,
      skipped: false,
    });
    expect((await files.read(old)).toString()).toBe('foto antiga');
    expect((await files.read(current)).toString()).toBe('já no formato novo');
    const [row] = await selectRows<{ template_sealed: string }>(
      database.db,
      sql`select template_sealed from biometric_templates where cpf = ${cpf}`,
    );
    const sealed = Buffer.from(row?.template_sealed ?? '', 'base64');
    expect(files.open(sealed, templateAad('DF', cpf)).toString()).toBe('[[0.5]]');
    expect(files.openLegacy(sealed)).toBeNull();

    expect(await upgradeSealedData(database.db, files)).toEqual({
      templates: 0,
      files: 0,
      skipped: true,
    });
  });
});
