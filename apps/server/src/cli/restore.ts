/**
 * `npm run restore -- <arquivo> [--force] [--key-file arquivo]`: puts a
 * backup made by `npm run backup` back in DATA_DIR (see modules/backup/restore.service.ts), opened
 * with BACKUP_KEY or the content of --key-file. Refused while the server
 * runs, over existing data without --force, and without the right key.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/env';
import { readBackupKeyFile } from '../modules/backup/backup-key-file';
import { BackupError, restoreFromFile } from '../modules/backup/restore.service';

const USAGE =
  'Uso: npm run restore -- <arquivo da cópia> [--force] [--key-file <arquivo da chave>]';

let parsed: { values: { force?: boolean; 'key-file'?: string }; positionals: string[] };
try {
  parsed = parseArgs({
    options: { force: { type: 'boolean' }, 'key-file': { type: 'string' } },
    allowPositionals: true,
  });
} catch {
  console.error(USAGE);
  process.exit(1);
}
const [file, ...extra] = parsed.positionals;
if (!file || extra.length > 0) {
  console.error(USAGE);
  process.exit(1);
}

try {
  const config = loadConfig();
  const keyFile = parsed.values['key-file'];
  const result = await restoreFromFile(config, file, {
    force: parsed.values.force ?? false,
    key: keyFile ? readBackupKeyFile(keyFile) : undefined,
  });
  console.log(`Cópia de segurança de ${result.createdAt} restaurada em ${config.dataDir}:`);
  console.log(
    `  ${result.tables} tabelas e ${result.rows} linhas conferidas, ${result.files} arquivos.`,
  );
  if (result.replaced) console.log('  Os dados que estavam na pasta foram substituídos.');
  console.log(
    '  Sessões, links de senha e dispositivos confiáveis foram neutralizados ao gravar a cópia: todos entram de novo.',
  );
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else if (error instanceof BackupError) console.error(`${error.message} (${error.code})`);
  else
    console.error(`Falha ao restaurar: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
