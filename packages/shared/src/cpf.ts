/**
 * CPF (Brazilian individual taxpayer number): check digits (weights 10..2 and
 * 11..2; remainder < 2 gives 0, else 11 - remainder), repeated-digit numbers
 * refused, the `ddd.ddd.ddd-dd` format and the masked form `***.456.789-**`.
 */
import { z } from 'zod';

export function stripCpf(value: string): string {
  return value.replace(/\D/g, '');
}

function checkDigit(digits: string, firstWeight: number): number {
  let sum = 0;
  for (let index = 0; index < firstWeight - 1; index += 1) {
    sum += Number(digits[index]) * (firstWeight - index);
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

export function isValidCpf(value: string): boolean {
  const digits = stripCpf(value);
  if (digits.length !== 11 || /^(\d)\1{10}$/.test(digits)) return false;
  return (
    checkDigit(digits, 10) === Number(digits[9]) && checkDigit(digits, 11) === Number(digits[10])
  );
}

/** `52998224725` -> `529.982.247-25`; partial input is formatted as far as it goes. */
export function formatCpf(value: string): string {
  const digits = stripCpf(value).slice(0, 11);
  const parts = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6, 9)].filter(Boolean);
  const head = parts.join('.');
  const tail = digits.slice(9, 11);
  return tail ? `${head}-${tail}` : head;
}

const MASKED_CPF = /^\*{3}\.\d{3}\.\d{3}-\*{2}$/;

/**
 * `52998224725` -> `***.982.247-**` (first three and last two digits hidden).
 * A CPF the server already masked is shown as it came.
 */
export function maskCpf(value: string): string {
  if (MASKED_CPF.test(value)) return value;
  const digits = stripCpf(value);
  if (digits.length !== 11) return '***.***.***-**';
  return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
}

export const CPF_INVALID_MESSAGE = 'CPF inválido.';

/** Accepts a CPF with or without separators and yields its 11 digits. */
export const cpfSchema = z
  .string()
  .trim()
  .transform(stripCpf)
  .refine(isValidCpf, { message: CPF_INVALID_MESSAGE });
