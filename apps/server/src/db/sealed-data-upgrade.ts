/**
 * One-time data migration to the bound encryption format (see
 * lib/file-storage.ts): face templates and stored files sealed before values
 * were bound to their owner are opened once with the old format and sealed
 * again, bound to their unit and CPF (templates) or their key (files). The
 * server refuses the old format everywhere else, so an old sealed value
 * copied into another row or file cannot be read as someone else's.
 *
 * Runs at start before the server listens; a marker in `settings` makes
 * later starts skip the walk over the files.
 */
import type { Database } from './client';
import { fileAad, templateAad, type FileStorage } from '../lib/file-storage';
import {
  listSealedTemplates,
  readSetting,
  resealTemplate,
  writeSetting,
} from './sealed-data-upgrade.repository';

const MARKER = 'sealed_data_format';
const CURRENT = 2;

export type SealedUpgradeResult = { templates: number; files: number; skipped: boolean };

export async function upgradeSealedData(
  db: Database,
  files: FileStorage,
): Promise<SealedUpgradeResult> {
  if ((await readSetting(db, MARKER)) === CURRENT) return { templates: 0, files: 0, skipped: true };

  let templates = 0;
  for (const row of await listSealedTemplates(db)) {
    const purpose = templateAad(row.unit, row.cpf);
    const stored = Buffer.from(row.sealed, 'base64');
    if (files.isCurrent(stored, purpose)) continue;
    const plain = files.openLegacy(stored);
    // Neither format opens it: left as it is; its verification asks for a new enrolment.
    if (!plain) continue;
    await resealTemplate(db, row, files.seal(plain, purpose).toString('base64'));
    templates += 1;
  }

  let upgradedFiles = 0;
  for (const { key } of await files.list()) {
    const stored = await files.readSealed(key);
    if (files.isCurrent(stored, fileAad(key))) continue;
    const plain = files.openLegacy(stored);
    if (!plain) continue;
    await files.replaceSealed(key, files.seal(plain, fileAad(key)));
    upgradedFiles += 1;
  }

  await writeSetting(db, MARKER, CURRENT);
  return { templates, files: upgradedFiles, skipped: false };
}
