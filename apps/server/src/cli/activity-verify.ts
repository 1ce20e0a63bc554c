/**
 * `npm run activity:verify`: checks the hash chain of every unit's activity
 * log (and of the events with no unit), prints one line per chain with the
 * hash of its last event, and exits with 1 when a chain has a broken link
 * (naming the first one).
 *
 * `-- --anchor <chain>:<nº>:<hash>` (once or more) also checks each chain
 * against a head kept outside the database (the hourly log line "âncora da
 * cadeia de atividades", or /metrics): a chain rewritten since, even past
 * the database's guards, no longer holds that event with that hash.
 *
 * With PostgreSQL (DATABASE_URL) it reads the database. With the embedded
 * database, which only one process may open, it asks the running server over
 * loopback with the operator token of DATA_DIR (on the port the server wrote
 * in DATA_DIR/server.lock), as `npm run mail:outbox` does; when no server
 * holds the folder, it opens the database itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError, loadConfig, type AppConfig } from '../config/env';
import { openDatabase, targetFromConfig } from '../db/client';
import { DataDirBusyError, lockHolder } from '../lib/data-dir-lock';
import { OPERATOR_TOKEN_HEADER, operatorTokenFile } from '../lib/operator-token';
import {
  verifyAllChains,
  type ChainAnchor,
  type UnitChainReport,
} from '../modules/activity/activity-chain';
import { anchorQuerySchema, chainReportsSchema } from '../modules/activity/activity.routes';

/** The `--anchor` values of the command line. */
function anchorArguments(argv: readonly string[]): string[] {
  const values: string[] = [];
  argv.forEach((argument, index) => {
    if (argument === '--anchor' && argv[index + 1]) values.push(argv[index + 1]!);
    else if (argument.startsWith('--anchor=')) values.push(argument.slice('--anchor='.length));
  });
  return values;
}

async function fromRunningServer(
  config: AppConfig,
  anchors: readonly string[],
): Promise<UnitChainReport[] | null> {
  const holder = lockHolder(config.dataDir);
  const tokenFile = operatorTokenFile(config.dataDir);
  if (!holder || !existsSync(tokenFile)) return null;
  const port = holder.port ?? config.port;
  try {
    const query = new URLSearchParams(
      anchors.map((anchor): [string, string] => ['anchor', anchor]),
    );
    const response = await fetch(`http://127.0.0.1:${port}/internal/activity-verify?${query}`, {
      headers: { [OPERATOR_TOKEN_HEADER]: readFileSync(tokenFile, 'utf8').trim() },
    });
    if (!response.ok) {
      throw new Error(`o servidor respondeu ${response.status} em /internal/activity-verify`);
    }
    return chainReportsSchema.parse(await response.json());
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') throw new DataDirBusyError(holder);
    throw error;
  }
}

async function fromDatabase(
  config: AppConfig,
  anchors: readonly ChainAnchor[],
): Promise<UnitChainReport[]> {
  // The embedded database's files are never opened under a running server.
  const holder = config.databaseUrl ? null : lockHolder(config.dataDir);
  if (holder) throw new DataDirBusyError(holder);
  const handle = await openDatabase(targetFromConfig(config));
  try {
    await handle.migrate();
    return await verifyAllChains(handle.db, anchors);
  } finally {
    await handle.close();
  }
}

function print(reports: UnitChainReport[]): boolean {
  if (reports.length === 0) {
    console.log('Nenhum evento no registro de atividades.');
    return true;
  }
  let ok = true;
  for (const report of reports) {
    const unit = (report.chain === '' ? '(sem UF)' : report.chain).padEnd(8);
    if (report.ok) {
      console.log(
        `${unit} íntegra   ${String(report.checked).padStart(9)} evento(s)  último hash ${report.headHash || '—'}`,
      );
    } else {
      ok = false;
      const broken = report.firstBroken!;
      console.log(
        `${unit} QUEBRADA  ${String(report.checked).padStart(9)} evento(s) conferidos antes do elo nº ${broken.seq}` +
          `${broken.id ? ` (evento ${broken.id}, ${broken.createdAt})` : ''}: ${broken.reason}`,
      );
    }
  }
  return ok;
}

try {
  const config = loadConfig();
  const texts = anchorArguments(process.argv.slice(2));
  const parsed = anchorQuerySchema.safeParse({ anchor: texts });
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'âncora inválida');
  const anchors = parsed.data.anchor;
  const reports = config.databaseUrl
    ? await fromDatabase(config, anchors)
    : ((await fromRunningServer(config, texts)) ?? (await fromDatabase(config, anchors)));
  if (!print(reports)) process.exitCode = 1;
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Falha ao conferir o registro de atividades: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 2;
}
