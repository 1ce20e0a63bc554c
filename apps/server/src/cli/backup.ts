/**
 * `npm run backup -- [--out arquivo] [--key-file arquivo]`: an encrypted
 * backup of the embedded database and of the stored files (see modules/backup/backup.service.ts).
 * Default name: exame-<date-time>.backup in the current folder. The key is
 * BACKUP_KEY or the content of --key-file; neither key goes into the backup:
 * keep them apart.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/env';
import { BackupError, backupToFile } from '../modules/backup/backup.service';
import { readBackupKeyFile } from '../modules/backup/backup-key-file';

const USAGE = 'Uso: npm run backup -- [--out <arquivo>] [--key-file <arquivo da chave>]';
const stamp = new Date().toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

let values: { out?: string; 'key-file'?: string };
try {
  ({ values } = parseArgs({
    options: { out: { type: 'string' }, 'key-file': { type: 'string' } },
  }));
} catch {
  console.error(USAGE);
  process.exit(1);
}

try {
  const config = loadConfig();
  const keyFile = values['key-file'];
  const result = await backupToFile(config, values.out ?? `exame-${stamp}.backup`, {
    key: keyFile ? readBackupKeyFile(keyFile) : undefined,
  });
  const tables = Object.values(result.manifest.tables);
  const files = result.manifest.entries.filter((entry) => entry.kind === 'file').length;
  const scrubbed = result.manifest.scrubbed;
  console.log(
    `Cópia de segurança cifrada, gravada e conferida: ${result.file} (${mib(result.bytes)})`,
  );
  console.log(
    `  ${tables.length} tabelas, ${tables.reduce((sum, table) => sum + table.rows, 0)} linhas; ${
      result.manifest.files === 'included'
        ? `${files} arquivos`
        : 'arquivos no armazenamento de objetos (FILE_STORAGE_URL), fora da cópia'
    }; feita ${result.via === 'server' ? 'pelo servidor em execução' : 'com o servidor parado'}.`,
  );
  if (scrubbed) {
    console.log(
      `  Neutralizados na cópia: ${scrubbed.sessions ?? 0} sessões abertas, ${scrubbed.passwordLinks ?? 0} links de senha e ${scrubbed.mailLinks ?? 0} e-mails com link, ${scrubbed.trustedDevices ?? 0} dispositivos confiáveis, ${scrubbed.faceChallenges ?? 0} desafios faciais, ${scrubbed.proctoringTokens ?? 0} confirmações do examinador 2; depois de restaurar, todos entram de novo.`,
    );
  }
  console.log(
    '  Nenhuma chave vai na cópia: guarde a BACKUP_KEY (sem ela a cópia não abre) e a FILE_ENCRYPTION_KEY (ou DATA_DIR/secrets/file-encryption.key) longe das cópias.',
  );
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else if (error instanceof BackupError) console.error(`${error.message} (${error.code})`);
  else
    console.error(
      `Falha ao gravar a cópia de segurança: ${error instanceof Error ? error.message : String(error)}`,
    );
  process.exitCode = 1;
}
