/**
 * What the benchmarks share: their command-line numbers and the database they
 * measure (PGlite in memory by default; BENCH_DATABASE_URL names a PostgreSQL
 * server, whose schema is dropped and migrated again).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/client';
import { ensureReferenceData } from '../apps/server/src/db/seed/reference-data';

/** `--name N` of the command line, a positive number, or `fallback`. */
export function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * The environment of a production server on loopback, as loadConfig requires
 * it: clients connect directly, a fresh encryption key, and mail kept in the
 * outbox (the runs send none).
 */
export function productionEnv(): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'none',
    FILE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    MAIL_OUTBOX_ONLY: 'true',
  };
}

/** An empty, migrated database with the reference data, on the engine the run measures. */
export async function openBenchDatabase(options: { poolSize: number }): Promise<DatabaseHandle> {
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  const database = await openDatabase(
    postgresUrl
      ? { kind: 'postgres', url: postgresUrl, poolSize: options.poolSize }
      : { kind: 'pglite', dataDir: 'memory' },
  );
  if (postgresUrl) {
    await database.db.execute(sql`drop schema if exists public cascade`);
    await database.db.execute(sql`drop schema if exists drizzle cascade`);
    await database.db.execute(sql`create schema public`);
  }
  await database.migrate();
  await ensureReferenceData(database.db);
  return database;
}
