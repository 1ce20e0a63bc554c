/**
 * `npm run backup -- [--out arquivo]`: a backup of the embedded database and
 * of the stored files (see backup.ts). Default name: exame-<date-time>.backup
 * in the current folder. The encryption key is not in it: keep it apart.
 */
import { ConfigError, loadConfig } from '../config/env';
import { BackupError, backupToFile } from './backup';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const stamp = new Date().toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

try {
  const config = loadConfig();
  const result = await backupToFile(config, option('out') ?? `exame-${stamp}.backup`);
  const tables = Object.values(result.manifest.tables);
  const files = result.manifest.entries.filter((entry) => entry.kind === 'file').length;
  console.log(`Cópia de segurança gravada e conferida: ${result.file} (${mib(result.bytes)})`);
  console.log(
    `  ${tables.length} tabelas, ${tables.reduce((sum, table) => sum + table.rows, 0)} linhas; ${
      result.manifest.files === 'included'
        ? `${files} arquivos`
        : 'arquivos no armazenamento de objetos (FILE_STORAGE_URL), fora da cópia'
    }; feita ${result.via === 'server' ? 'pelo servidor em execução' : 'com o servidor parado'}.`,
  );
  console.log(
    '  A chave de criptografia não vai na cópia: guarde FILE_ENCRYPTION_KEY (ou DATA_DIR/secrets/file-encryption.key) à parte.',
  );
} catch (error) {
  console.error(
    error instanceof ConfigError || error instanceof BackupError
      ? error.message
      : `Falha ao gravar a cópia de segurança: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}
