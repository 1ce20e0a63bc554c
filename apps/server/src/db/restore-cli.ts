/**
 * `npm run restore -- <arquivo> [--force]`: puts a backup made by
 * `npm run backup` back in DATA_DIR (see backup.ts). Refused while the server
 * runs, and over existing data without --force.
 */
import { ConfigError, loadConfig } from '../config/env';
import { BackupError, restoreFromFile } from './backup';

const args = process.argv.slice(2);
const force = args.includes('--force');
const file = args.find((arg) => !arg.startsWith('--'));

if (!file) {
  console.error('Uso: npm run restore -- <arquivo da cópia> [--force]');
  process.exit(1);
}

try {
  const config = loadConfig();
  const result = await restoreFromFile(config, file, { force });
  console.log(`Cópia de segurança de ${result.createdAt} restaurada em ${config.dataDir}:`);
  console.log(
    `  ${result.tables} tabelas e ${result.rows} linhas conferidas, ${result.files} arquivos.`,
  );
  if (result.replaced) console.log('  Os dados que estavam na pasta foram substituídos.');
} catch (error) {
  console.error(
    error instanceof ConfigError || error instanceof BackupError
      ? error.message
      : `Falha ao restaurar: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}
