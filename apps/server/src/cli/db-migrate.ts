/** `npm run db:migrate`: applies the SQL migrations to the configured database. */
import { loadConfig } from '../config/env';
import { openDatabase, targetFromConfig } from '../db/client';

const config = loadConfig();
const handle = await openDatabase(targetFromConfig(config));
try {
  await handle.migrate();
  console.log(`Migrações aplicadas (${handle.kind === 'pglite' ? config.dataDir : 'PostgreSQL'}).`);
} finally {
  await handle.close();
}
