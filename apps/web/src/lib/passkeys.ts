/**
 * The browser's side of a passkey (`@simplewebauthn/browser`, loaded only
 * when one is used): creating one, and signing a server's challenge. The
 * browser's refusals come back as errors with a code of the identity texts
 * (`passkey-cancelled`, `passkey-unsupported`, `passkey-exists`, `passkey-failed`).
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { ApiError } from './api-client';

function passkeyFailure(error: unknown): Error {
  if (error instanceof ApiError) return error;
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (/not supported/i.test(message)) return new ApiError(message, null, 'passkey-unsupported');
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return new ApiError(message, null, 'passkey-exists');
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return new ApiError(message, null, 'passkey-cancelled');
  return new ApiError(message, null, 'passkey-failed');
}

export async function createPasskey(
  optionsJSON: PublicKeyCredentialCreationOptionsJSON,
): Promise<RegistrationResponseJSON> {
  try {
    const { startRegistration } = await import('@simplewebauthn/browser');
    return await startRegistration({ optionsJSON });
  } catch (error) {
    throw passkeyFailure(error);
  }
}

export async function signWithPasskey(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
): Promise<AuthenticationResponseJSON> {
  try {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    return await startAuthentication({ optionsJSON });
  } catch (error) {
    throw passkeyFailure(error);
  }
}
