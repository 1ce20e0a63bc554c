import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, engineName } from '../../test/helper';
import { ensureReferenceData } from './seed/reference-data';

describe(`migrations on ${engineName}`, () => {
  it('create every table of the schema and can be applied again', async () => {
    const database = await createTestDatabase();
    try {
      const result = await database.db.execute<{ table_name: string }>(
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      const tables = result.rows.map((row) => row.table_name);
      expect(tables).toContain('federative_units');
      // A second run finds every migration applied and changes nothing.
      await database.migrate();
      const applied = await database.db.execute<{ count: number }>(
        sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
      );
      expect(applied.rows[0]?.count).toBeGreaterThan(0);
      await ensureReferenceData(database.db);
      await ensureReferenceData(database.db);
      const units = await database.db.execute<{ count: number }>(
        sql`select count(*)::int as count from federative_units`,
      );
      expect(units.rows[0]?.count).toBe(28);
    } finally {
      await database.drop();
    }
  });
});
