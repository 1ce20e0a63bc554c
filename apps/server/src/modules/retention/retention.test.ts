import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/client';
import { biometricTemplates, biometricVerifications, examPhotos } from '../../db/schema/index';
import { createApiKeyFor, examPayload } from '../../../test/exams';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';
import { purgeExpiredPersonalData } from './retention';

describe('LGPD retention', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const DAY = 86_400_000;
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

  it('purges old verifications, enrolments and exam photos per unit, files included, and records it', async () => {
    const db = t.database.db;
    const files = t.app.files;
    for (const [unit, days] of [
      ['DF', 200],
      ['DF', 10],
      ['SP', 200],
    ] as const) {
      await db.insert(biometricVerifications).values({
        federativeUnit: unit,
        cpf: '52998224725',
        match: true,
        threshold: 0.58,
        createdAt: daysAgo(days),
      });
    }
    const oldKey = await files.put(Buffer.from('foto antiga'));
    const newKey = await files.put(Buffer.from('foto recente'));
    await db.insert(biometricTemplates).values([
      {
        federativeUnit: 'DF',
        cpf: '11144477735',
        templateSealed: 'x',
        imageKeys: [oldKey],
        updatedAt: daysAgo(400),
      },
      {
        federativeUnit: 'DF',
        cpf: '12345678909',
        templateSealed: 'x',
        imageKeys: [newKey],
        updatedAt: daysAgo(5),
      },
    ]);
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const key = (await createApiKeyFor(t.app, admin.auth)).key;
    const exam = examPayload();
    await t.app.inject({
      method: 'POST',
      url: '/api/Integration/exams',
      headers: { 'x-api-key': key },
      payload: { exams: [exam] },
    });
    const [row] = await selectRows<{ id: string }>(
      db,
      sql`select id from exams where scheduling_id = ${exam.schedulingId}`,
    );
    const photoKey = await files.put(Buffer.from('foto do exame'));
    await db.insert(examPhotos).values({
      examId: row!.id,
      capturedAt: daysAgo(200),
      storageKey: photoKey,
      contentType: 'image/jpeg',
      width: 1,
      height: 1,
      bytes: 1,
      sha256: 'a',
    });

    // DF keeps 100 days, every other unit the default 365.
    const counts = await purgeExpiredPersonalData(db, files, {
      defaultDays: 365,
      byUnit: { DF: 100 },
    });
    expect(counts.DF).toEqual({ verifications: 1, enrolments: 1, photos: 1 });
    expect(counts.SP).toEqual({ verifications: 0, enrolments: 0, photos: 0 });

    const left = await selectRows<{ unit: string; n: number }>(
      db,
      sql`select federative_unit as unit, count(*)::int as n from biometric_verifications group by 1 order by 1`,
    );
    expect(left).toEqual([
      { unit: 'DF', n: 1 },
      { unit: 'SP', n: 1 },
    ]);
    await expect(files.get(oldKey)).rejects.toThrow();
    await expect(files.get(photoKey)).rejects.toThrow();
    await expect(files.get(newKey)).resolves.toEqual(Buffer.from('foto recente'));
    const events = await selectRows<{ payload: Record<string, unknown> }>(
      db,
      sql`select payload from activity_log where type = 'retention_purge'`,
    );
    expect(events).toEqual([
      { payload: { verifications: 1, enrolments: 1, photos: 1, retentionDays: 100 } },
    ]);

    // Nothing more to purge on a second run.
    expect(
      (await purgeExpiredPersonalData(db, files, { defaultDays: 365, byUnit: { DF: 100 } })).DF,
    ).toEqual({
      verifications: 0,
      enrolments: 0,
      photos: 0,
    });
  });
});
