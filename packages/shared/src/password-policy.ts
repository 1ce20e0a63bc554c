/**
 * Password policy with the semantics of the original identity provider
 * (schema version 1 only), and one `validatePassword` used by the server and
 * the web forms alike. Length counts UTF-16 units; character classes are ASCII.
 */
import { z } from 'zod';

export const DEFAULT_ALLOWED_NON_ALPHANUMERIC = '^$*.[]{}()?"!@#%&/\\,><\':;|_~`';
export const DEFAULT_MIN_PASSWORD_LENGTH = 6;

export const passwordPolicySchema = z.object({
  schemaVersion: z.number().int(),
  enforcementState: z.enum(['ENFORCE', 'OFF']).default('ENFORCE'),
  customStrengthOptions: z
    .object({
      minPasswordLength: z.number().int().min(6).max(30).optional(),
      maxPasswordLength: z.number().int().min(6).max(4096).optional(),
      containsLowercaseCharacter: z.boolean().optional(),
      containsUppercaseCharacter: z.boolean().optional(),
      containsNumericCharacter: z.boolean().optional(),
      containsNonAlphanumericCharacter: z.boolean().optional(),
    })
    .default({}),
  allowedNonAlphanumericCharacters: z.string().optional(),
});
export type PasswordPolicy = z.infer<typeof passwordPolicySchema>;

export class PasswordPolicyError extends Error {
  override name = 'PasswordPolicyError';
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  schemaVersion: 1,
  enforcementState: 'ENFORCE',
  customStrengthOptions: { minPasswordLength: DEFAULT_MIN_PASSWORD_LENGTH },
};

/** Parses a policy; only schema version 1 is supported. */
export function parsePasswordPolicy(value: unknown): PasswordPolicy {
  const policy = passwordPolicySchema.parse(value);
  if (policy.schemaVersion !== 1) {
    throw new PasswordPolicyError(
      `Versão ${policy.schemaVersion} da política de senhas não é suportada (apenas a versão 1).`,
    );
  }
  const { minPasswordLength, maxPasswordLength } = policy.customStrengthOptions;
  if (
    minPasswordLength !== undefined &&
    maxPasswordLength !== undefined &&
    maxPasswordLength < minPasswordLength
  ) {
    throw new PasswordPolicyError('O tamanho máximo da senha é menor que o mínimo.');
  }
  return policy;
}

export type PasswordCriterionId =
  | 'minLength'
  | 'maxLength'
  | 'lowercase'
  | 'uppercase'
  | 'numeric'
  | 'nonAlphanumeric'
  | 'notCommon';

export type PasswordCriterion = { id: PasswordCriterionId; label: string; met: boolean };

export type PasswordValidation = { isValid: boolean; criteria: PasswordCriterion[] };

export type ValidatePasswordOptions = {
  /** Rejects the most common passwords (ASVS 2.1.7) when given. */
  isCommonPassword?: (password: string) => boolean;
};

export function validatePassword(
  policy: PasswordPolicy,
  password: string,
  options: ValidatePasswordOptions = {},
): PasswordValidation {
  const strength = policy.customStrengthOptions;
  const minLength = strength.minPasswordLength ?? DEFAULT_MIN_PASSWORD_LENGTH;
  const allowed = policy.allowedNonAlphanumericCharacters ?? DEFAULT_ALLOWED_NON_ALPHANUMERIC;
  const criteria: PasswordCriterion[] = [
    {
      id: 'minLength',
      label: `Pelo menos ${minLength} caracteres`,
      met: password.length >= minLength,
    },
  ];
  if (strength.maxPasswordLength !== undefined) {
    criteria.push({
      id: 'maxLength',
      label: `No máximo ${strength.maxPasswordLength} caracteres`,
      met: password.length <= strength.maxPasswordLength,
    });
  }
  if (strength.containsLowercaseCharacter) {
    criteria.push({ id: 'lowercase', label: 'Uma letra minúscula', met: /[a-z]/.test(password) });
  }
  if (strength.containsUppercaseCharacter) {
    criteria.push({ id: 'uppercase', label: 'Uma letra maiúscula', met: /[A-Z]/.test(password) });
  }
  if (strength.containsNumericCharacter) {
    criteria.push({ id: 'numeric', label: 'Um número', met: /[0-9]/.test(password) });
  }
  if (strength.containsNonAlphanumericCharacter) {
    criteria.push({
      id: 'nonAlphanumeric',
      label: `Um caractere especial (${allowed})`,
      met: [...password].some((char) => allowed.includes(char)),
    });
  }
  if (options.isCommonPassword) {
    criteria.push({
      id: 'notCommon',
      label: 'Não ser uma senha comum',
      met: password.length > 0 && !options.isCommonPassword(password),
    });
  }
  // With enforcement OFF the criteria are shown but do not block.
  const isValid = policy.enforcementState === 'OFF' || criteria.every((criterion) => criterion.met);
  return { isValid, criteria };
}
