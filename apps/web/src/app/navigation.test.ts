/** The side menu by role: "Possíveis fraudes" is for ADMIN and auditors, never for examiners. */
import { EXAMINER_ROLES } from '@exame/shared';
import { describe, expect, it } from 'vitest';
import { menuFor } from './navigation';

const FRAUD_CASES = '/possiveis-fraudes';
const hasFraudCases = (role: Parameters<typeof menuFor>[0]) =>
  menuFor(role).some((entry) => entry.to === FRAUD_CASES);

describe('menu', () => {
  it('shows "Possíveis fraudes" to ADMIN and auditors', () => {
    expect(menuFor('ADMIN').find((entry) => entry.to === FRAUD_CASES)?.label).toBe(
      'Possíveis fraudes',
    );
    expect(hasFraudCases('auditor')).toBe(true);
  });

  it('never shows it to an examiner', () => {
    expect(EXAMINER_ROLES.length).toBeGreaterThan(0);
    for (const role of EXAMINER_ROLES) expect(hasFraudCases(role)).toBe(false);
    expect(hasFraudCases(undefined)).toBe(false);
  });
});
