/**
 * Starts the server: parse the environment, open and migrate the database,
 * seed on first start, listen, and shut down gracefully on SIGINT/SIGTERM.
 */
import { buildApp } from './app';
import type { FaceService } from './biometrics/face-engine';
import { createFaceService } from './biometrics/face-pool';
import { ConfigError, loadConfig } from './config/env';
import { openDatabase, targetFromConfig } from './db/client';
import { describeFirstStart, seedFirstStart } from './db/seed/first-start';
import { seedDemoOnEmpty } from './db/seed/demo-exams';
import { ensureReferenceData } from './db/seed/reference-data';
import { scheduleRetention } from './modules/retention/retention';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase(targetFromConfig(config));
  await database.migrate();
  await ensureReferenceData(database.db);

  // Warm the face engine before listening, so the first verification is not slow.
  let faceService: FaceService | undefined;
  try {
    faceService = await createFaceService({
      matchThreshold: config.face.matchThreshold,
      threads: config.face.workers,
    });
  } catch (error) {
    console.error(
      'Motor facial indisponível; a validação facial responderá com erro até ser corrigido.',
      error,
    );
  }
  const app = await buildApp({ config, database, faceService });
  app.addHook('onClose', async () => {
    await faceService?.close();
  });
  const firstStart = await seedFirstStart(database.db, config, app.identity.hasher);
  if (config.seedDemo) await seedDemoOnEmpty(database.db, app.files);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.lifecycle.shuttingDown = true;
    app.log.info({ signal }, 'encerrando: aguardando requisições em andamento');
    const timer = setTimeout(() => {
      app.log.error('encerramento excedeu o tempo limite; saindo');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'falha ao encerrar');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  const stopRetention = scheduleRetention(database.db, app.files, config.retention, app.log);
  app.addHook('onClose', async () => stopRetention());
  await app.listen({ host: config.host, port: config.port });
  const where = database.kind === 'pglite' ? `PGlite em ${config.dataDir}` : 'PostgreSQL';
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(
    `\nExame teórico — administração e auditoria\n  Endereço: http://${shownHost}:${port}\n  Banco de dados: ${where}\n  API: http://${shownHost}:${port}/docs\n`,
  );
  if (firstStart) console.log(`${describeFirstStart(firstStart)}\n`);
  else
    console.log(
      '  Entre com uma conta já cadastrada (as contas iniciais foram exibidas na primeira execução).\n',
    );
}

main().catch((error: unknown) => {
  console.error('Falha ao iniciar o servidor:', error);
  process.exit(1);
});
