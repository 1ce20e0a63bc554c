import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import {
  IDENTITY_ERROR_MESSAGES,
  identityErrorMessage,
  identityErrorText,
} from './identity-errors';

describe('identity error texts (spec 8)', () => {
  it('has a pt-BR text for every code the spec lists', () => {
    for (const code of [
      'password-does-not-meet-requirements',
      'missing-recaptcha-token',
      'multi-factor-auth-required',
      'user-mismatch',
      'unauthorized-domain',
      'popup-blocked',
      'popup-closed-by-user',
      'cancelled-popup-request',
      'network-request-failed',
      'web-storage-unsupported',
      'invalid-api-key',
      'login-blocked',
    ]) {
      expect(IDENTITY_ERROR_MESSAGES[code], code).toMatch(/\S/);
    }
  });

  it('maps network failures and falls back to the server text', () => {
    expect(identityErrorMessage('NETWORK_ERROR', 'x')).toBe(
      IDENTITY_ERROR_MESSAGES['network-request-failed'],
    );
    expect(identityErrorMessage('login-blocked', 'x')).toBe(
      'Muitas tentativas de login. Aguarde alguns minutos e tente novamente.',
    );
    expect(identityErrorMessage('OUTRO', 'Texto do servidor')).toBe('Texto do servidor');
    expect(identityErrorMessage(null, 'Texto do servidor')).toBe('Texto do servidor');
  });

  it('reads the code of an API failure, and shows any other failure as it is', () => {
    expect(identityErrorText(new ApiError('x', 429, 'login-blocked'))).toBe(
      IDENTITY_ERROR_MESSAGES['login-blocked'],
    );
    expect(identityErrorText(new ApiError('Texto do servidor', 400, null))).toBe(
      'Texto do servidor',
    );
    expect(identityErrorText('falhou')).toBe('falhou');
  });
});
