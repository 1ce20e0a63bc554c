import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, engineName } from '../../test/helper';
import { selectRows } from './select-rows';
import { ensureReferenceData } from './seed/reference-data';

describe(`migrations on ${engineName}`, () => {
  it('create every table of the schema and can be applied again', async () => {
    const database = await createTestDatabase();
    try {
      const result = await selectRows<{ table_name: string }>(
        database.db,
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      const tables = result.map((row) => row.table_name);
      expect(tables).toContain('federative_units');
      // No table announces its changes on `read_cache` any more (migration 0023 drops 0018's triggers).
      const leftovers = await selectRows<{ name: string }>(
        database.db,
        sql`select tgname as name from pg_trigger where tgname = 'read_cache_notify'
            union all select proname from pg_proc where proname = 'read_cache_notify'`,
      );
      expect(leftovers).toEqual([]);
      // A second run finds every migration applied and changes nothing.
      await database.migrate();
      const applied = await selectRows<{ count: number }>(
        database.db,
        sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
      );
      expect(applied[0]?.count).toBeGreaterThan(0);
      await ensureReferenceData(database.db);
      await ensureReferenceData(database.db);
      const units = await selectRows<{ count: number }>(
        database.db,
        sql`select count(*)::int as count from federative_units`,
      );
      expect(units[0]?.count).toBe(28);
    } finally {
      await database.drop();
    }
  });
});
