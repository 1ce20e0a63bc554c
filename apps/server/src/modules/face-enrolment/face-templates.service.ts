/**
 * Templates in the engine's current descriptor version. Descriptors of
 * another engine version are not comparable with this one's, so a template
 * enrolled under another version is recomputed from its stored enrolment
 * captures (all at once, so the pool's workers share them), saved (unless it
 * was re-enrolled meanwhile) and logged (`biometric_template_upgrade`). A
 * capture the current engine refuses (a gate that became stricter) or whose
 * file is gone is left out while at least one remains; with none, the person
 * must enrol again. Failures of the engine itself are not the template's
 * fault and pass through.
 */
import { BIOPASS_ERRORS } from '@exame/shared';
import {
  LEGACY_DESCRIPTOR_VERSION,
  templateOf,
  type FaceService,
} from '../../biometrics/face-engine';
import { faceError } from '../../biometrics/face-errors';
import type { Database } from '../../db/client';
import { AppError, type ErrorDetail } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import { insertActivity } from '../activity/activity.service';
import {
  findTemplate,
  replaceTemplateIfUnchanged,
  type TemplateRow,
} from './face-enrolment.repository';
import { openTemplate, sealTemplate } from './template-sealing';

export type TemplateDeps = { db: Database; files: FileStorage; face: FaceService };

/** The enrolled descriptors of `template`, recomputed first when another engine version made them. */
export async function currentDescriptors(
  deps: TemplateDeps,
  template: TemplateRow,
  retried = false,
): Promise<number[][]> {
  const from = template.descriptorVersion ?? LEGACY_DESCRIPTOR_VERSION;
  if (from === deps.face.descriptorVersion) return openTemplate(deps.files, template);

  const results = await Promise.allSettled(
    template.imageKeys.map(async (key) =>
      templateOf(await deps.face.analyze(await deps.files.read(key))),
    ),
  );
  const descriptors: number[][] = [];
  const leftOut: ErrorDetail[] = [];
  for (const [index, result] of results.entries()) {
    if (result.status === 'fulfilled') {
      descriptors.push(result.value);
      continue;
    }
    const error: unknown = result.reason;
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    if (error.code === 'FILE_UNAVAILABLE' && !retried) {
      // A new enrolment (or the retention purge) may have replaced the
      // captures while they were read: start again from the row as it is now.
      const current = await findTemplate(deps.db, template.federativeUnit, template.cpf);
      if (!current) throw AppError.from(BIOPASS_ERRORS, 'BIOMETRIC_NOT_ENROLLED');
      if (current.templateSealed !== template.templateSealed) {
        return currentDescriptors(deps, current, true);
      }
    }
    leftOut.push({ path: `captures.${index}`, message: `${error.code}: ${error.message}` });
  }
  if (descriptors.length === 0) throw faceError('FACE_TEMPLATE_OUTDATED', leftOut);

  const templateSealed = sealTemplate(deps.files, template, descriptors);
  await deps.db.transaction(async (tx) => {
    const replaced = await replaceTemplateIfUnchanged(tx, template, {
      templateSealed,
      descriptorVersion: deps.face.descriptorVersion,
    });
    if (!replaced) return;
    await insertActivity(tx, {
      type: 'biometric_template_upgrade',
      actorId: null,
      federativeUnit: template.federativeUnit,
      payload: {
        cpf: template.cpf,
        from,
        to: deps.face.descriptorVersion,
        captures: descriptors.length,
        leftOut: leftOut.map((detail) => detail.message),
      },
    });
  });
  return descriptors;
}
