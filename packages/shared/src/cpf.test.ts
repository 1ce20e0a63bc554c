import { describe, expect, it } from 'vitest';
import { cpfSchema, formatCpf, isValidCpf, maskCpf, stripCpf } from './cpf';

describe('CPF', () => {
  it('validates the check digits', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('111.444.777-35')).toBe(true);
    expect(isValidCpf('529.982.247-24')).toBe(false);
    expect(isValidCpf('529.982.247-15')).toBe(false);
    expect(isValidCpf('5299822472')).toBe(false);
    expect(isValidCpf('')).toBe(false);
  });

  it('a remainder below 2 gives a zero check digit', () => {
    // 123.456.789: first sum 210 -> remainder 1 -> 0; second sum 255 -> remainder 2 -> 9.
    expect(isValidCpf('123.456.789-09')).toBe(true);
    expect(isValidCpf('123.456.789-19')).toBe(false);
  });

  it('refuses repeated-digit numbers', () => {
    for (let digit = 0; digit <= 9; digit += 1) {
      expect(isValidCpf(String(digit).repeat(11))).toBe(false);
    }
  });

  it('strips, formats and masks', () => {
    expect(stripCpf('529.982.247-25')).toBe('52998224725');
    expect(formatCpf('52998224725')).toBe('529.982.247-25');
    expect(formatCpf('5299')).toBe('529.9');
    expect(formatCpf('529982247')).toBe('529.982.247');
    expect(maskCpf('12345678909')).toBe('***.456.789-**');
    expect(maskCpf('123')).toBe('***.***.***-**');
    // Masking what the server already masked changes nothing.
    expect(maskCpf('***.456.789-**')).toBe('***.456.789-**');
  });

  it('the schema yields digits or a pt-BR error', () => {
    expect(cpfSchema.parse(' 529.982.247-25 ')).toBe('52998224725');
    const result = cpfSchema.safeParse('111.111.111-11');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('CPF inválido.');
  });
});
