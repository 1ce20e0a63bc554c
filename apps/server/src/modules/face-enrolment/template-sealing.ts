/**
 * Face templates at rest: the descriptors of an enrolment (one per capture)
 * sealed with AES-256-GCM and bound to their owner, the unit and the CPF, so
 * that a template copied into another person's row no longer opens.
 */
import { DESCRIPTOR_LENGTH } from '../../biometrics/descriptor';
import { faceError } from '../../biometrics/face-errors';
import { templateAad, type FileStorage } from '../../lib/file-storage';

export type TemplateOwner = { federativeUnit: string; cpf: string };

export function sealTemplate(
  files: FileStorage,
  owner: TemplateOwner,
  descriptors: ArrayLike<number>[],
): string {
  const plain = JSON.stringify(descriptors.map((descriptor) => Array.from(descriptor)));
  return files
    .seal(Buffer.from(plain, 'utf8'), templateAad(owner.federativeUnit, owner.cpf))
    .toString('base64');
}

/** The descriptors of a sealed template; FACE_TEMPLATE_INVALID when it does not open or parse. */
export function openTemplate(
  files: FileStorage,
  template: TemplateOwner & { templateSealed: string },
): number[][] {
  try {
    const opened = files.open(
      Buffer.from(template.templateSealed, 'base64'),
      templateAad(template.federativeUnit, template.cpf),
    );
    const parsed: unknown = JSON.parse(opened.toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.every((item) => Array.isArray(item) && item.length === DESCRIPTOR_LENGTH)
    ) {
      return parsed as number[][];
    }
  } catch {
    // Falls through to the error below: a damaged template cannot be trusted.
  }
  throw faceError('FACE_TEMPLATE_INVALID');
}
