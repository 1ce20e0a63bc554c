import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './common-passwords';

describe('common passwords', () => {
  it.each([
    '123456',
    'password',
    'qwerty',
    'Senha123',
    'MUDAR123',
    'flamengo',
    'maria123',
    'Joao2024',
    'brasil!',
  ])('%s is common', (password) => expect(isCommonPassword(password)).toBe(true));
  it.each(['mesa-azul-42', 'Tk9#pqL2vz', 'cavalo correto bateria grampo', 'Xq7!rrTz'])(
    '%s is not',
    (password) => expect(isCommonPassword(password)).toBe(false),
  );
});
