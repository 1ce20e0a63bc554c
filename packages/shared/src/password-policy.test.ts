import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_POLICY,
  parsePasswordPolicy,
  PasswordPolicyError,
  validatePassword,
  type PasswordPolicy,
} from './password-policy';

const strict: PasswordPolicy = parsePasswordPolicy({
  schemaVersion: 1,
  customStrengthOptions: {
    minPasswordLength: 8,
    maxPasswordLength: 12,
    containsLowercaseCharacter: true,
    containsUppercaseCharacter: true,
    containsNumericCharacter: true,
    containsNonAlphanumericCharacter: true,
  },
});

const unmet = (policy: PasswordPolicy, password: string) =>
  validatePassword(policy, password)
    .criteria.filter((criterion) => !criterion.met)
    .map((criterion) => criterion.id);

describe('password policy', () => {
  it('defaults to a minimum of 6', () => {
    expect(validatePassword(DEFAULT_PASSWORD_POLICY, '12345').isValid).toBe(false);
    expect(validatePassword(DEFAULT_PASSWORD_POLICY, '123456').isValid).toBe(true);
    expect(validatePassword(parsePasswordPolicy({ schemaVersion: 1 }), 'abcde').isValid).toBe(
      false,
    );
    expect(validatePassword(parsePasswordPolicy({ schemaVersion: 1 }), 'abcdef').isValid).toBe(
      true,
    );
  });

  it('only schema version 1 is supported', () => {
    expect(() => parsePasswordPolicy({ schemaVersion: 2 })).toThrow(PasswordPolicyError);
    expect(() => parsePasswordPolicy({ schemaVersion: 2 })).toThrow(/apenas a versão 1/);
  });

  it('bounds the configured lengths', () => {
    expect(() =>
      parsePasswordPolicy({ schemaVersion: 1, customStrengthOptions: { minPasswordLength: 5 } }),
    ).toThrow();
    expect(() =>
      parsePasswordPolicy({ schemaVersion: 1, customStrengthOptions: { minPasswordLength: 31 } }),
    ).toThrow();
    expect(() =>
      parsePasswordPolicy({ schemaVersion: 1, customStrengthOptions: { maxPasswordLength: 4097 } }),
    ).toThrow();
    expect(() =>
      parsePasswordPolicy({
        schemaVersion: 1,
        customStrengthOptions: { minPasswordLength: 10, maxPasswordLength: 8 },
      }),
    ).toThrow(PasswordPolicyError);
  });

  it('reports each unmet criterion', () => {
    expect(unmet(strict, '')).toEqual([
      'minLength',
      'lowercase',
      'uppercase',
      'numeric',
      'nonAlphanumeric',
    ]);
    expect(unmet(strict, 'abcdefgh')).toEqual(['uppercase', 'numeric', 'nonAlphanumeric']);
    expect(unmet(strict, 'Abcdefg1')).toEqual(['nonAlphanumeric']);
    expect(unmet(strict, 'Abcdef1!')).toEqual([]);
    expect(unmet(strict, 'Abcdef1!Abcde')).toEqual(['maxLength']);
  });

  it('length boundaries are inclusive and count UTF-16 units', () => {
    expect(unmet(strict, 'Abcde1!x')).toEqual([]); // 8
    expect(unmet(strict, 'Abcd1!x')).toContain('minLength'); // 7
    expect(unmet(strict, 'Abcdefgh1!xy')).toEqual([]); // 12
    expect(unmet(strict, 'Abcdefgh1!xyz')).toContain('maxLength'); // 13
    // An emoji is two UTF-16 units.
    expect('😀'.length).toBe(2);
    expect(unmet(parsePasswordPolicy({ schemaVersion: 1 }), 'ab😀cd')).toEqual([]); // 5 code points, 6 units
    expect(unmet(parsePasswordPolicy({ schemaVersion: 1 }), 'ab😀c')).toEqual(['minLength']);
  });

  it('character classes are ASCII only', () => {
    expect(unmet(strict, 'ÁÉÍÓÚáéí1!')).toEqual(['lowercase', 'uppercase']);
    expect(unmet(strict, 'Abcdef1²')).toEqual(['nonAlphanumeric']);
  });

  it('uses the allowed special characters of the policy', () => {
    const custom = parsePasswordPolicy({
      schemaVersion: 1,
      customStrengthOptions: { containsNonAlphanumericCharacter: true },
      allowedNonAlphanumericCharacters: '#',
    });
    expect(unmet(custom, 'abcdef!')).toEqual(['nonAlphanumeric']);
    expect(unmet(custom, 'abcdef#')).toEqual([]);
  });

  it('rejects common passwords when a dictionary is given', () => {
    const isCommon = (password: string) => ['123456', 'senha123'].includes(password.toLowerCase());
    const result = validatePassword(DEFAULT_PASSWORD_POLICY, 'Senha123', {
      isCommonPassword: isCommon,
    });
    expect(result.isValid).toBe(false);
    expect(result.criteria.find((criterion) => criterion.id === 'notCommon')?.met).toBe(false);
    expect(
      validatePassword(DEFAULT_PASSWORD_POLICY, 'mesa-azul-42', { isCommonPassword: isCommon })
        .isValid,
    ).toBe(true);
  });

  it('enforcement OFF shows the criteria but does not block', () => {
    const off = parsePasswordPolicy({ ...strict, enforcementState: 'OFF' });
    const result = validatePassword(off, 'a');
    expect(result.isValid).toBe(true);
    expect(result.criteria.some((criterion) => !criterion.met)).toBe(true);
  });
});
