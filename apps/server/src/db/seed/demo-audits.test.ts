/**
 * The demo audit queue of the start-up seed, on both database tiers: exams of
 * DEMO waiting for audit with a score on either side of the pass mark, one
 * reference photo and several captures each (stored, readable), occurrences
 * on some, the queue oldest first as the DEMO auditor sees it, the face
 * engine finding no face in the illustrations, and a second run adding
 * nothing.
 */
import { PASSING_SCORE, type AuditDetail, type AuditQueueItem } from '@exame/shared';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';
import { selectRows } from '../select-rows';
import { seedDemoAuditQueue } from './demo-audits';
import { seedDemoOnEmpty } from './demo-exams';

type Prepared = {
  id: string;
  scheduling_date: Date | string;
  scheduling_local: string;
  score: number | string | null;
  references: number;
  captures: number;
  occurrences: number;
};

describe('demo audit queue', () => {
  let t: TestApp;
  const prepared = async (unit = 'DEMO') =>
    selectRows<Prepared>(
      t.database.db,
      sql`select e.id, e.scheduling_date, e.scheduling_local, e.score,
                 (select count(*)::int from exam_photos p where p.exam_id = e.id and p.kind = 'reference') as "references",
                 (select count(*)::int from exam_photos p where p.exam_id = e.id and p.kind = 'capture') as captures,
                 (select count(*)::int from occurrences o where o.exam_id = e.id) as occurrences
          from exams e
          where e.federative_unit = ${unit} and e.status = 'done' and e.result = 'in_analysis'
            and exists (select 1 from exam_photos p where p.exam_id = e.id and p.kind = 'reference')
          order by e.scheduling_date, e.scheduling_id`,
    );
  const totals = async () =>
    (
      await selectRows<{ exams: number; photos: number; occurrences: number }>(
        t.database.db,
        sql`select (select count(*)::int from exams) as exams,
                   (select count(*)::int from exam_photos) as photos,
                   (select count(*)::int from occurrences) as occurrences`,
      )
    )[0]!;

  beforeAll(async () => {
    t = await buildTestApp();
    await seedDemoOnEmpty(t.database.db, t.app.files);
  });
  afterAll(() => t.close());

  it('gives DEMO exams waiting for audit a score, a reference photo, captures and some occurrences', async () => {
    const rows = await prepared();
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const row of rows) {
      expect(row.references, row.id).toBe(1);
      expect(row.captures, row.id).toBeGreaterThanOrEqual(3);
      expect(row.score, row.id).not.toBeNull();
    }
    const scores = rows.map((row) => Number(row.score));
    expect(scores.some((score) => score < PASSING_SCORE)).toBe(true);
    expect(scores.filter((score) => score >= PASSING_SCORE).length).toBeGreaterThan(
      rows.length / 2,
    );
    expect(scores.every((score) => score >= 50 && score <= 100)).toBe(true);
    const withOccurrences = rows.filter((row) => row.occurrences > 0).length;
    expect(withOccurrences).toBeGreaterThanOrEqual(2);
    expect(withOccurrences).toBeLessThan(rows.length);
    // Spread over posts and days, so the filters and the order show.
    expect(new Set(rows.map((row) => row.scheduling_local.split('-')[0])).size).toBeGreaterThan(1);
    expect(
      new Set(rows.map((row) => new Date(row.scheduling_date).toISOString().slice(0, 10))).size,
    ).toBeGreaterThanOrEqual(3);
    // Some occurrences point at the capture that shows them.
    const linked = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from occurrences o
          join exam_photos p on p.id = o.photo_id and p.exam_id = o.exam_id and p.kind = 'capture'
          where o.exam_id in ${rows.map((row) => row.id)}`,
    );
    expect(linked[0]!.n).toBeGreaterThan(0);
  });

  it('stores the pictures: a reference portrait and webcam captures read back as JPEG', async () => {
    const [first] = await prepared();
    const photos = await selectRows<{
      kind: string;
      storage_key: string;
      sha256: string;
      width: number;
      height: number;
    }>(
      t.database.db,
      sql`select kind, storage_key, sha256, width, height from exam_photos
          where exam_id = ${first!.id} order by kind desc, captured_at`,
    );
    expect(photos[0]?.kind).toBe('reference');
    expect(new Set(photos.map((photo) => photo.sha256)).size).toBe(photos.length);
    for (const photo of photos) {
      const jpeg = await t.app.files.read(photo.storage_key);
      const meta = await sharp(jpeg).metadata();
      expect(meta.format).toBe('jpeg');
      expect([meta.width, meta.height]).toEqual([photo.width, photo.height]);
    }
  });

  it('the DEMO auditor finds them in the queue, oldest first; the engine finds no face in the illustrations', async () => {
    const auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'DEMO' });
    const items: AuditQueueItem[] = [];
    for (let page = 1; ; page += 1) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/Audit/queue?pageSize=100&page=${page}`,
        headers: auditor.auth,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json() as { items: AuditQueueItem[]; total: number };
      items.push(...body.items);
      if (items.length >= body.total || body.items.length === 0) break;
    }
    const dates = items.map((item) => new Date(item.schedulingDate).getTime());
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    const rows = await prepared();
    for (const row of rows) {
      const item = items.find((entry) => entry.id === row.id);
      expect(item?.photos, row.id).toBe(row.captures);
      expect(item?.occurrences, row.id).toBe(row.occurrences);
    }
    // The oldest exam waiting leads the queue and is one of them.
    expect(rows.map((row) => row.id)).toContain(items[0]?.id);

    const withOccurrences = rows.find((row) => row.occurrences > 0)!;
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/Audit/${withOccurrences.id}`,
      headers: auditor.auth,
    });
    expect(response.statusCode).toBe(200);
    const detail = response.json() as AuditDetail;
    expect(detail.reference).not.toBeNull();
    expect(detail.captures.length).toBe(withOccurrences.captures);
    expect(detail.occurrences.length).toBe(withOccurrences.occurrences);
    // Drawn people, not real ones: no face, so no similarity (stated in
    // docs/audit-and-certificates.md).
    expect(detail.reference?.face.status).toBe('no_face');
    expect(detail.captures.every((capture) => capture.face.status === 'no_face')).toBe(true);
    expect(detail.captures.every((capture) => capture.face.similarity === null)).toBe(true);
    expect(detail.releaseOutcome).toBe(
      Number(withOccurrences.score) >= PASSING_SCORE ? 'approved' : 'reproved',
    );
  }, 120_000);

  it('seeds once: a second run adds nothing', async () => {
    const before = await totals();
    expect(await seedDemoAuditQueue(t.database.db, t.app.files)).toBe(0);
    await seedDemoOnEmpty(t.database.db, t.app.files);
    expect(await totals()).toEqual(before);
  });

  it('creates exams waiting for audit in a unit that has too few', async () => {
    expect(await seedDemoAuditQueue(t.database.db, t.app.files, { unit: 'SP', count: 4 })).toBe(4);
    const rows = await prepared('SP');
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.references).toBe(1);
      expect(row.captures).toBeGreaterThanOrEqual(3);
      expect(new Date(row.scheduling_date).getTime()).toBeLessThan(Date.now());
    }
    const history = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from exam_status_history
          where exam_id in ${rows.map((row) => row.id)} and to_status = 'done' and to_result = 'in_analysis'`,
    );
    expect(history[0]!.n).toBe(4);
    expect(await seedDemoAuditQueue(t.database.db, t.app.files, { unit: 'SP', count: 4 })).toBe(0);
  });
});
