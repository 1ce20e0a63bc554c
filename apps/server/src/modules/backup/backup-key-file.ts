/**
 * The operator's backup key given as a file (`--key-file <arquivo>` of
 * `npm run backup` and `npm run restore`), instead of BACKUP_KEY: the key
 * never shows on the command line, in the shell's history or the process
 * list. The file holds the key alone (a final line break is ignored).
 */
import fs from 'node:fs';
import { BACKUP_KEY_MIN_LENGTH } from '../../config/env';
import { BackupError } from './backup-format';

export function readBackupKeyFile(file: string): string {
  let key: string;
  try {
    key = fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new BackupError(
      `Não foi possível ler o arquivo da chave da cópia de segurança (--key-file): ${file}`,
      'BACKUP_KEY_MISSING',
    );
  }
  if (key.length < BACKUP_KEY_MIN_LENGTH) {
    throw new BackupError(
      `A chave do arquivo ${file} (--key-file) é curta demais: use ao menos ${BACKUP_KEY_MIN_LENGTH} caracteres (ex.: openssl rand -base64 32).`,
      'BACKUP_KEY_MISSING',
    );
  }
  return key;
}
