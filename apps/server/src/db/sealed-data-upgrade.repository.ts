/** SQL of the one-time upgrade of sealed data (see sealed-data-upgrade.ts). */
import { and, eq } from 'drizzle-orm';
import type { Executor } from './client';
import { biometricTemplates, settings } from './schema/index';

export async function readSetting(db: Executor, key: string): Promise<unknown> {
  const [row] = await db.select().from(settings).where(eq(settings.key, key)).limit(1);
  return row?.value;
}

export async function writeSetting(db: Executor, key: string, value: number): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

/** Every face template with its owner and its sealed value. */
export async function listSealedTemplates(
  db: Executor,
): Promise<Array<{ id: string; unit: string; cpf: string; sealed: string }>> {
  return db
    .select({
      id: biometricTemplates.id,
      unit: biometricTemplates.federativeUnit,
      cpf: biometricTemplates.cpf,
      sealed: biometricTemplates.templateSealed,
    })
    .from(biometricTemplates);
}

/** Replaces a template's sealed value unless it changed since it was read. */
export async function resealTemplate(
  db: Executor,
  template: { id: string; sealed: string },
  sealed: string,
): Promise<void> {
  await db
    .update(biometricTemplates)
    .set({ templateSealed: sealed })
    .where(
      and(
        eq(biometricTemplates.id, template.id),
        eq(biometricTemplates.templateSealed, template.sealed),
      ),
    );
}
