/**
 * The SQL of backups (backup.service.ts): the row count and a content digest of
 * every table of the database (the app's, the migrations' and the job
 * queue's), recorded in the backup's manifest and compared after a restore.
 */
import { sql } from 'drizzle-orm';
import { type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import type { TableDigest } from './backup-format';

/** Every ordinary table outside PostgreSQL's own schemas, as `schema.table`. */
export async function listTables(db: Executor): Promise<Array<{ schema: string; table: string }>> {
  const rows = await selectRows<{ schema: string; table: string }>(
    db,
    sql`select n.nspname as schema, c.relname as table
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind = 'r'
           and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
           and n.nspname not like 'pg_temp%'
         order by 1, 2`,
  );
  return rows;
}

/**
 * Rows and digest of each table: the MD5 of the sorted MD5s of its rows as
 * text, so the digest depends on the content only, never on the physical
 * order of the rows.
 */
export async function tableDigests(db: Executor): Promise<Record<string, TableDigest>> {
  const digests: Record<string, TableDigest> = {};
  for (const { schema, table } of await listTables(db)) {
    const name = sql`${sql.identifier(schema)}.${sql.identifier(table)}`;
    const [row] = await selectRows<{ rows: number; digest: string | null }>(
      db,
      sql`select count(*)::int as rows,
                 md5(coalesce(string_agg(h, '' order by h), '')) as digest
            from (select md5(t::text) as h from ${name} t) hashed`,
    );
    digests[`${schema}.${table}`] = { rows: row?.rows ?? 0, digest: row?.digest ?? '' };
  }
  return digests;
}
