/**
 * `npm run mail:outbox`: prints the e-mails waiting in the outbox, with their
 * links while they are valid, for an installation without SMTP_URL (the
 * embedded default). The log never carries them.
 *
 * With PostgreSQL it reads the database. With the embedded database, which
 * only one process may open, it asks the running server over loopback with
 * the operator token of DATA_DIR (on the port the server wrote in
 * DATA_DIR/server.lock); when no server holds the folder, it opens the
 * database itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError, loadConfig, type AppConfig } from '../config/env';
import { openDatabase, targetFromConfig } from '../db/client';
import { DataDirBusyError, lockHolder } from '../lib/data-dir-lock';
import { OPERATOR_TOKEN_HEADER, operatorTokenFile } from '../lib/operator-token';
import { listPendingMail } from '../modules/mail/mailer';
import { pendingMailSchema } from '../modules/mail/mail.routes';

type PendingMail = Awaited<ReturnType<typeof listPendingMail>>;

async function fromRunningServer(config: AppConfig): Promise<PendingMail | null> {
  const tokenFile = operatorTokenFile(config.dataDir);
  if (!existsSync(tokenFile)) return null;
  // The server that holds the data folder says on which port it listens.
  const port = lockHolder(config.dataDir)?.port ?? config.port;
  try {
    const response = await fetch(`http://127.0.0.1:${port}/internal/mail-outbox`, {
      headers: { [OPERATOR_TOKEN_HEADER]: readFileSync(tokenFile, 'utf8').trim() },
    });
    if (!response.ok) {
      throw new Error(`o servidor respondeu ${response.status} em /internal/mail-outbox`);
    }
    return pendingMailSchema.parse(await response.json());
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return null;
    throw error;
  }
}

async function fromDatabase(config: AppConfig): Promise<PendingMail> {
  // The embedded database's files are never opened under a running server.
  const holder = config.databaseUrl ? null : lockHolder(config.dataDir);
  if (holder) throw new DataDirBusyError(holder);
  const handle = await openDatabase(targetFromConfig(config));
  try {
    await handle.migrate();
    return await listPendingMail(handle.db);
  } finally {
    await handle.close();
  }
}

function print(messages: PendingMail): void {
  if (messages.length === 0) {
    console.log('Nenhum e-mail aguardando na caixa de saída.');
    return;
  }
  console.log(`${messages.length} e-mail(s) aguardando na caixa de saída:\n`);
  for (const message of messages) {
    console.log(`Para: ${message.to}`);
    console.log(`Assunto: ${message.subject}`);
    console.log(`Criado em: ${message.createdAt}`);
    if (message.linkExpiresAt) console.log(`Link válido até: ${message.linkExpiresAt}`);
    console.log(`\n${message.text}\n${'-'.repeat(72)}`);
  }
}

try {
  const config = loadConfig();
  const messages = config.databaseUrl
    ? await fromDatabase(config)
    : ((await fromRunningServer(config)) ?? (await fromDatabase(config)));
  print(messages);
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Falha ao ler a caixa de saída: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}
