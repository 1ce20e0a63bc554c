/**
 * Starts the server: parse the environment, open and migrate the database,
 * seed on first start, listen, and shut down gracefully on SIGINT/SIGTERM.
 */
import { buildApp } from './app';
import { faceServiceFromConfig } from './biometrics/face-pool';
import { ConfigError, loadConfigOrExit } from './config/env';
import { openDatabase, targetFromConfig, type DatabaseHandle } from './db/client';
import { describeFirstStart, seedFirstStart } from './db/seed/first-start';
import { seedDemoOnEmpty } from './db/seed/demo-exams';
import { ensureReferenceData } from './db/seed/reference-data';
import { upgradeSealedData } from './db/sealed-data-upgrade';
import { startScheduledJobs } from './jobs/scheduled-jobs';
import { acquireDataDir, DataDirBusyError } from './lib/data-dir-lock';
import { createObjectStore, describeObjectStorage } from './lib/object-storage';

/** PGlite has no autovacuum: its planner statistics are refreshed here instead. */
const STATISTICS_INTERVAL_MS = 60 * 60_000;

/**
 * On PGlite: ANALYZE before listening (after migrations and seeds) and then
 * every hour, on the database's worker thread between the requests' statements.
 */
async function scheduleStatistics(
  database: DatabaseHandle,
  log: { error: (object: unknown, message: string) => void },
): Promise<() => void> {
  if (database.kind !== 'pglite') return () => undefined;
  const refresh = () =>
    database.analyze().catch((error: unknown) => {
      log.error({ err: error }, 'falha ao atualizar as estatísticas do banco');
    });
  await refresh();
  const timer = setInterval(() => void refresh(), STATISTICS_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();

  // One process at a time on the embedded database's files (a second would corrupt them).
  let dataDirLock: ReturnType<typeof acquireDataDir> | null = null;
  if (!config.databaseUrl) {
    try {
      dataDirLock = acquireDataDir(config.dataDir, 'server');
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error;
      console.error(`${error.message} Pare-o antes de iniciar outro, ou use outro DATA_DIR.`);
      process.exit(1);
    }
    const lock = dataDirLock;
    process.once('exit', () => lock.release());
  }
  // The bucket of FILE_STORAGE_URL answers with these credentials, or the start stops here.
  if (config.fileStorage.kind === 's3') {
    const store = createObjectStore(config.fileStorage, { maxAttempts: 2 });
    try {
      await store.check();
    } catch (error) {
      const cause =
        error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
      console.error(
        `FILE_STORAGE_URL: o bucket ${describeObjectStorage(config.fileStorage)} não respondeu${cause ? ` (${cause})` : ''}.`,
      );
      process.exit(1);
    } finally {
      store.close();
    }
  }

  // The face engine starts on first use: the first face challenge a client
  // asks for (the models load while the person turns their head) or the
  // first stored photo to read. A server that reads no face never loads it.
  const faceService = faceServiceFromConfig(config.face);
  const database = await openDatabase(targetFromConfig(config));
  await database.migrate();
  await ensureReferenceData(database.db);
  const app = await buildApp({ config, database, faceService });
  app.addHook('onClose', async () => {
    await faceService.close();
  });
  const sealed = await upgradeSealedData(database.db, app.files);
  if (sealed.templates + sealed.files > 0) {
    app.log.info(sealed, 'dados cifrados convertidos para o formato vinculado ao dono');
  }
  let firstStart;
  try {
    firstStart = await seedFirstStart(database.db, config, app.identity.hasher);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    await app.close();
    await database.close();
    process.exit(1);
  }
  if (config.seedDemo) await seedDemoOnEmpty(database.db, app.files);
  const stopStatistics = await scheduleStatistics(database, app.log);
  app.addHook('onClose', async () => stopStatistics());

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

  // Scheduled work, once per schedule across instances (jobs/scheduled-jobs.ts).
  // On shutdown a run still going after half the shutdown time is failed and retried later.
  const jobs = await startScheduledJobs(app, {
    stopTimeoutMs: Math.max(1000, Math.floor(config.shutdownTimeoutMs / 2)),
  });
  app.addHook('onClose', () => jobs.stop());
  await app.listen({ host: config.host, port: config.port });
  const listening = app.server.address();
  if (dataDirLock && typeof listening === 'object' && listening) dataDirLock.update(listening.port);
  if (config.nodeEnv === 'production' && !config.publicAppUrlSet) {
    app.log.warn(
      'PUBLIC_APP_URL não definida: os links dos e-mails e as chaves de acesso (passkeys) usam http://localhost; defina o endereço que as pessoas usam',
    );
  }
  if (config.databaseUrl && config.fileStorage.kind === 'disk') {
    app.log.warn(
      'arquivos no disco local (DATA_DIR/files): com mais de uma instância, defina FILE_STORAGE_URL',
    );
  }
  const where = database.kind === 'pglite' ? `PGlite em ${config.dataDir}` : 'PostgreSQL';
  const filesAt =
    config.fileStorage.kind === 's3'
      ? describeObjectStorage(config.fileStorage)
      : config.fileStorage.root;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const mail = config.smtpUrl
    ? 'SMTP'
    : 'sem SMTP_URL: os e-mails (links de senha) ficam na caixa de saída; leia-os com `npm run mail:outbox`';
  const docs = config.apiDocs
    ? `http://${shownHost}:${port}/docs`
    : 'documento da API desligado (API_DOCS=true o liga)';
  const required = config.secondFactor.requiredRoles;
  const secondFactor =
    required.length > 0
      ? `obrigatório para ${required.join(', ')} (MFA_REQUIRED_ROLES): no próximo login, cada um cadastra um aplicativo autenticador ou uma chave de acesso`
      : `opcional (MFA_REQUIRED_ROLES); para ativar, entre e abra "Segurança da conta" (http://${shownHost}:${port}/seguranca) com um aplicativo autenticador ou uma chave de acesso`;
  console.log(
    `\nExame teórico — administração e auditoria\n  Endereço: http://${shownHost}:${port}\n  Banco de dados: ${where}\n  Arquivos: ${filesAt}\n  API: ${docs}\n  E-mails: ${mail}\n  Segundo fator: ${secondFactor}\n`,
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
