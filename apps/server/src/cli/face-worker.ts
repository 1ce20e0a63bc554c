/**
 * `npm run face:worker`: a process that only reads exam photos, the jobs of
 * the `face-read` queue (modules/audits/face-read-queue.service.ts), with no
 * HTTP server. Start as many as the photo traffic needs, on the API's
 * machines or others, against the same PostgreSQL (DATABASE_URL), the same
 * files (FILE_STORAGE_URL, or the same DATA_DIR on one machine) and the same
 * FILE_ENCRYPTION_KEY; then FACE_READ_IN_SERVER=false keeps the API's
 * instances for the requests. FACE_WORKERS sets its face pool's threads (one
 * job more than threads runs at once).
 *
 * It runs below normal CPU priority (nice +10, inherited by the face pool's
 * threads, started after it is set): on a machine shared with an API
 * instance the requests get the CPU first, the readings what is left.
 *
 * Each photo read is one JSON line on stdout (`photoId`, `examId`, `ms`);
 * SIGTERM or SIGINT stops taking jobs and waits for the running ones (up to
 * half of SHUTDOWN_TIMEOUT_MS; those still running are released to be read
 * again by another process). On the embedded PGlite it refuses to start: that
 * database is one process's, and the server reads the photos itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import { faceServiceFromConfig } from '../biometrics/face-pool';
import { loadConfigOrExit } from '../config/env';
import { openDatabase, targetFromConfig } from '../db/client';
import { startJobBoss } from '../db/job-boss';
import { createFileStorage, existingFileKey } from '../lib/file-storage';
import { fileStoreFor } from '../lib/object-storage';
import {
  consumeFaceReads,
  ensureFaceReadQueue,
  faceReadConcurrency,
} from '../modules/audits/face-read-queue.service';
import { fraudSearch } from '../modules/fraud/fraud-detection.service';

/** Nice value of the worker (0 normal, 19 lowest): below the API on a shared machine. */
const WORKER_NICE = 10;

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: 99 };

const config = loadConfigOrExit();

if (!config.databaseUrl) {
  console.error(
    'O leitor de fotos (npm run face:worker) precisa de um PostgreSQL (DATABASE_URL). ' +
      'O banco embutido (PGlite) pertence a um só processo: nele, o próprio servidor lê as fotos.',
  );
  process.exit(1);
}

const key = existingFileKey(config.dataDir, config.fileEncryptionKey);
if (!key) {
  console.error(
    'O leitor de fotos precisa da chave dos arquivos: defina FILE_ENCRYPTION_KEY (a mesma do servidor) ' +
      'ou use o mesmo DATA_DIR do servidor.',
  );
  process.exit(1);
}

// Before the face pool starts: its threads take the priority of the thread that
// creates them. On Linux a priority is per thread: the threads already running
// (V8's and libuv's helpers) are lowered one by one.
try {
  os.setPriority(WORKER_NICE);
  if (process.platform === 'linux') {
    for (const tid of fs.readdirSync('/proc/self/task')) os.setPriority(Number(tid), WORKER_NICE);
  }
} catch {
  // Lowering one's own priority is always allowed on Linux; elsewhere, carry on at normal priority.
}

const threshold = LEVELS[config.logLevel as keyof typeof LEVELS] ?? LEVELS.info;
const line = (level: keyof typeof LEVELS, object: object, msg: string) => {
  if (LEVELS[level] < threshold) return;
  const fields = Object.fromEntries(
    Object.entries(object).map(([name, value]) =>
      value instanceof Error
        ? [name, { message: value.message, stack: value.stack }]
        : [name, value],
    ),
  );
  const text = JSON.stringify({ level, time: Date.now(), pid: process.pid, msg, ...fields });
  (LEVELS[level] >= LEVELS.warn ? process.stderr : process.stdout).write(`${text}\n`);
};
const log = {
  info: (object: object, msg: string) => line('info', object, msg),
  error: (object: object, msg: string) => line('error', object, msg),
};

const face = faceServiceFromConfig(config.face);
const database = await openDatabase(targetFromConfig(config));
const store = fileStoreFor(config.fileStorage);
const files = createFileStorage({ store, key });
const closeAll = async () => {
  await face.close();
  store.close();
  await database.close();
};

let boss: Awaited<ReturnType<typeof startJobBoss>>;
try {
  await face.ready();
  boss = await startJobBoss(database, { log, schedule: false });
  await ensureFaceReadQueue(boss);
} catch (error) {
  console.error('Falha ao iniciar o leitor de fotos:', error);
  await closeAll().catch(() => undefined);
  process.exit(1);
}

const concurrency = faceReadConcurrency(face.threads);
const fraud = fraudSearch({
  db: database.db,
  descriptorVersion: face.descriptorVersion,
  settings: config.fraud,
  log,
});
await consumeFaceReads(
  boss,
  { db: database.db, files, face, afterExamRead: fraud.afterExamRead },
  {
    concurrency,
    log,
    onRead: (reading) => line('info', reading, 'foto lida'),
    // The API's sends wake this process at once (its poll is only the fallback).
    listen: database.listen,
  },
);
line('info', { threads: face.threads, concurrency, nice: WORKER_NICE }, 'leitor de fotos pronto');

let closing = false;
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  line('info', { signal }, 'encerrando: terminando as leituras em andamento');
  const timer = setTimeout(() => {
    line('error', {}, 'encerramento excedeu o tempo limite; saindo');
    process.exit(1);
  }, config.shutdownTimeoutMs);
  timer.unref();
  try {
    // Running jobs finish; past the timeout they are failed, to be retried by another process.
    await boss.stop({
      graceful: true,
      wait: true,
      timeout: Math.max(1000, Math.floor(config.shutdownTimeoutMs / 2)),
    });
    await closeAll();
    process.exit(0);
  } catch (error) {
    line('error', { err: error }, 'falha ao encerrar');
    process.exit(1);
  }
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
