import { describe, expect, it } from 'vitest';
import { maskEmail } from './users';

describe('maskEmail', () => {
  it('keeps the first letter and the domain', () => {
    expect(maskEmail('joana.silva@detran.df.gov.br')).toBe('j***@detran.df.gov.br');
    expect(maskEmail('sem-arroba')).toBe('***');
    expect(maskEmail('@dominio.gov.br')).toBe('***');
  });
});
