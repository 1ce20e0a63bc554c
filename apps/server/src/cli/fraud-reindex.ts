/**
 * `npm run fraud:reindex`: makes every exam face of the search window again
 * from its read captures and searches each again among its unit's exams
 * ("Possíveis fraudes", modules/fraud), printing the progress and the cases
 * it opened or added to. Run it after a change of the face engine or of the
 * rule of exam faces, or to catch up with searches that failed (the server
 * logs those). Pairs of exams already in a case are never raised again.
 *
 * With PostgreSQL (DATABASE_URL) it runs beside the servers. The embedded
 * database is opened by one process only: stop the server first.
 */
import { faceServiceFromConfig } from '../biometrics/face-pool';
import { ConfigError, loadConfig } from '../config/env';
import { openDatabase, targetFromConfig } from '../db/client';
import { DataDirBusyError, lockHolder } from '../lib/data-dir-lock';
import { createFraudDetection, reindexExamFaces } from '../modules/fraud/fraud-detection.service';

try {
  const config = loadConfig();
  const holder = config.databaseUrl ? null : lockHolder(config.dataDir);
  if (holder) throw new DataDirBusyError(holder);
  const face = faceServiceFromConfig(config.face);
  const handle = await openDatabase(targetFromConfig(config));
  try {
    await handle.migrate();
    const detection = createFraudDetection({
      db: handle.db,
      descriptorVersion: face.descriptorVersion,
      threshold: config.fraud.threshold,
      windowDays: config.fraud.windowDays,
    });
    const started = performance.now();
    const done = await reindexExamFaces(detection, handle.db, (progress) =>
      console.log(
        `${progress.exams} exame(s) lidos, ${progress.faces} rosto(s) indexados, ${progress.cases} caso(s) abertos ou ampliados`,
      ),
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Índice refeito em ${seconds} s: ${done.faces} rosto(s) de ${done.exams} exame(s); ` +
        `${done.cases} caso(s) abertos ou ampliados. Rostos por unidade: ${JSON.stringify(detection.indexes.sizes())}`,
    );
  } finally {
    await handle.close();
    await face.close();
  }
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Falha ao refazer o índice de rostos: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}
