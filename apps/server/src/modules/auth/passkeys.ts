/**
 * Passkeys (WebAuthn) through `@simplewebauthn/server`: the options handed to
 * the browser and the check of its answer against the relying party of
 * PUBLIC_APP_URL (its host is the RP ID, its origin the only one accepted).
 * A passkey here is a second factor (something the person has), so user
 * verification is preferred, not required. Answers the library cannot read or
 * refuses come back as null: the caller answers `passkey-failed`.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AppConfig } from '../../config/env';
import type { FactorRow } from './second-factor.repository';

export type RelyingParty = AppConfig['secondFactor'];
type Credential = Record<string, unknown>;

const TIMEOUT_MS = 120_000;
const transportsOf = (factor: FactorRow) => factor.transports as AuthenticatorTransport[];
const passkeysOf = (factors: readonly FactorRow[]) =>
  factors.filter((factor) => factor.kind === 'passkey' && factor.credentialId !== null);

export function registrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string; name: string },
  factors: readonly FactorRow[],
) {
  return generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpId,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    userDisplayName: user.name,
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: passkeysOf(factors).map((factor) => ({
      id: factor.credentialId!,
      transports: transportsOf(factor),
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

export type NewPasskey = {
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
};

export async function verifyRegistration(
  rp: RelyingParty,
  credential: Credential,
  challenge: string,
): Promise<NewPasskey | null> {
  try {
    const result = await verifyRegistrationResponse({
      response: credential as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const made = result.registrationInfo.credential;
    return {
      credentialId: made.id,
      publicKey: Buffer.from(made.publicKey).toString('base64url'),
      signCount: made.counter,
      transports: made.transports ?? [],
    };
  } catch {
    return null;
  }
}

export function authenticationOptions(rp: RelyingParty, factors: readonly FactorRow[]) {
  return generateAuthenticationOptions({
    rpID: rp.rpId,
    timeout: TIMEOUT_MS,
    userVerification: 'preferred',
    allowCredentials: passkeysOf(factors).map((factor) => ({
      id: factor.credentialId!,
      transports: transportsOf(factor),
    })),
  });
}

/** The passkey of `factors` that signed this answer, and its new counter; null when none did. */
export async function verifyAuthentication(
  rp: RelyingParty,
  credential: Credential,
  challenge: string,
  factors: readonly FactorRow[],
): Promise<{ factor: FactorRow; signCount: number } | null> {
  const factor = passkeysOf(factors).find((candidate) => candidate.credentialId === credential.id);
  if (!factor) return null;
  try {
    const result = await verifyAuthenticationResponse({
      response: credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: false,
      credential: {
        id: factor.credentialId!,
        publicKey: new Uint8Array(Buffer.from(factor.publicKey ?? '', 'base64url')),
        counter: factor.signCount,
        transports: transportsOf(factor),
      },
    });
    return result.verified ? { factor, signCount: result.authenticationInfo.newCounter } : null;
  } catch {
    return null;
  }
}
