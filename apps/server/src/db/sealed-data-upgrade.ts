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
import { and, eq } from 'drizzle-orm';
import type { Database } from './client';
import { biometricTemplates, settings } from './schema/index';
import { fileAad, templateAad, type FileStorage } from '../lib/file-storage';

const MARKER = 'sealed_data_format';
const CURRENT = 2;

export type SealedUpgradeResult = { templates: number; files: number; skipped: boolean };

export async function upgradeSealedData(
  db: Database,
  files: FileStorage,
): Promise<SealedUpgradeResult> {
  const [marker] = await db.select().from(settings).where(eq(settings.key, MARKER)).limit(1);
  if (marker?.value === CURRENT) return { templates: 0, files: 0, skipped: true };

  let templates = 0;
  const rows = await db
    .select({
      id: biometricTemplates.id,
      unit: biometricTemplates.federativeUnit,
      cpf: biometricTemplates.cpf,
      sealed: biometricTemplates.templateSealed,
    })
    .from(biometricTemplates);
  for (const row of rows) {
    const purpose = templateAad(row.unit, row.cpf);
    const stored = Buffer.from(row.sealed, 'base64');
    if (files.isCurrent(stored, purpose)) continue;
    const plain = files.openLegacy(stored);
    // Neither format opens it: left as it is; its verification asks for a new enrolment.
    if (!plain) continue;
    await db
      .update(biometricTemplates)
      .set({ templateSealed: files.seal(plain, purpose).toString('base64') })
      .where(
        and(eq(biometricTemplates.id, row.id), eq(biometricTemplates.templateSealed, row.sealed)),
      );
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

  await db
    .insert(settings)
    .values({ key: MARKER, value: CURRENT })
    .onConflictDoUpdate({ target: settings.key, set: { value: CURRENT, updatedAt: new Date() } });
  return { templates, files: upgradedFiles, skipped: false };
}
