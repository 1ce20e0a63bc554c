/**
 * pt-BR texts for the identity error codes of spec 8. The codes the server
 * raises take their text from the shared catalogue (`AUTH_ERRORS`), written
 * once; the codes only a browser meets (pop-ups, storage, network) are
 * written here. The same situation always reads the same way.
 */
import { AUTH_ERRORS, SECOND_FACTOR_ERRORS, SSO_ERRORS } from '@exame/shared';
import { ApiError } from '../../lib/api-client';

export const IDENTITY_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      ...Object.entries(AUTH_ERRORS),
      ...Object.entries(SSO_ERRORS),
      ...Object.entries(SECOND_FACTOR_ERRORS),
    ].map(([code, entry]) => [code, entry.message]),
  ),
  'missing-recaptcha-token': 'Confirme que você não é um robô e tente novamente.',
  'multi-factor-auth-required': 'É necessária uma verificação adicional para entrar.',
  'popup-blocked':
    'O navegador bloqueou a janela de login. Permita janelas deste site e tente novamente.',
  'popup-closed-by-user': 'A janela de login foi fechada antes da conclusão.',
  'cancelled-popup-request': 'Outra janela de login já está aberta.',
  'network-request-failed': 'Falha de conexão. Verifique sua internet e tente novamente.',
  'web-storage-unsupported': 'O armazenamento do navegador está desativado. Ative-o para entrar.',
  'invalid-api-key': 'Configuração de acesso inválida. Avise o suporte.',
  // The browser's side of a passkey (WebAuthn): cancelled, unsupported, or refused.
  'passkey-cancelled':
    'A chave de acesso não foi usada: a janela foi fechada ou o tempo acabou. Tente novamente.',
  'passkey-unsupported': 'Este navegador não oferece chaves de acesso. Use outro método.',
  'passkey-exists': 'Esta chave de acesso já está cadastrada na sua conta.',
};

export function identityErrorMessage(code: string | null, fallback: string): string {
  if (code === 'NETWORK_ERROR' || code === 'TIMEOUT')
    return IDENTITY_ERROR_MESSAGES['network-request-failed'] ?? fallback;
  return (code && IDENTITY_ERROR_MESSAGES[code]) || fallback;
}

/** A disabled account (after its right password, or with its valid link): nothing to try again. */
export function isAccountDisabled(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'user-disabled';
}

/** What a failed identity call (sign-in, password link) tells the person. */
export function identityErrorText(error: unknown): string {
  return error instanceof ApiError
    ? identityErrorMessage(error.code, error.message)
    : String(error);
}
