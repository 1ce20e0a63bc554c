/**
 * `npm run seed:demo -- --exams N [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--unit DEMO] [--photos 20]`:
 * adds N realistic exams (default 1 000) to the configured database, after the
 * ones already there, with service posts, status history and occurrences.
 * The SQL is in db/seed/demo-exams.ts.
 */
import { loadConfig } from '../config/env';
import { openDatabase, targetFromConfig } from '../db/client';
import { createFileStorage, resolveFileKey } from '../lib/file-storage';
import { fileStoreFor } from '../lib/object-storage';
import {
  countDemoExams,
  seedDemoExams,
  seedDemoHistory,
  seedDemoLocals,
  seedDemoPhotos,
} from '../db/seed/demo-exams';
import { ensureReferenceData } from '../db/seed/reference-data';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function parseDate(value: string | undefined, fallback: Date): Date {
  if (!value) return fallback;
  const date = new Date(`${value}T00:00:00`);
  if (Number.isNaN(date.getTime())) {
    console.error(`Data inválida: ${value} (use AAAA-MM-DD).`);
    process.exit(1);
  }
  return date;
}

const count = Number(option('exams') ?? 1000);
if (!Number.isInteger(count) || count < 1 || count > 10_000_000) {
  console.error('Informe --exams com um número inteiro entre 1 e 10 000 000.');
  process.exit(1);
}
const unit = (option('unit') ?? 'DEMO').toUpperCase();
const day = 86_400_000;
const from = parseDate(option('from'), new Date(Date.now() - 60 * day));
const to = parseDate(option('to'), new Date(Date.now() + 14 * day));
if (to <= from) {
  console.error('--to precisa ser depois de --from.');
  process.exit(1);
}

const config = loadConfig();
const handle = await openDatabase(targetFromConfig(config));
try {
  await handle.migrate();
  await ensureReferenceData(handle.db);
  await seedDemoLocals(handle.db, unit);
  const existing = await countDemoExams(handle.db, unit);
  const started = Date.now();
  const batch = 200_000;
  let written = 0;
  for (let done = 0; done < count; done += batch) {
    const size = Math.min(batch, count - done);
    written += await seedDemoExams(handle.db, {
      exams: size,
      from,
      to,
      unit,
      offset: existing + done,
      seed: ((done / batch) % 100) / 100,
    });
    process.stdout.write(`\r${written} exames inseridos...`);
  }
  if (count <= 200_000) await seedDemoHistory(handle.db, unit);
  const photos = Number(option('photos') ?? 20);
  if (photos > 0) {
    const store = fileStoreFor(config.fileStorage);
    const files = createFileStorage({
      store,
      key: resolveFileKey(config.dataDir, config.fileEncryptionKey),
    });
    try {
      await seedDemoPhotos(handle.db, files, Math.min(photos, 1000), unit);
    } finally {
      store.close();
    }
  }
  console.log(
    `\n${written} exames de ${unit} inseridos em ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
} finally {
  await handle.close();
}
