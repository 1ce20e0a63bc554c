/**
 * Authenticator-app codes (TOTP, RFC 6238: HMAC-SHA1, 6 digits, 30-second
 * steps), the settings every app reads from an `otpauth://` address. A code
 * is accepted one step early or late (clocks drift); which step it matched is
 * returned so the caller can refuse the same step twice.
 */
import { Secret, TOTP } from 'otpauth';
import { TOTP_DIGITS } from '@exame/shared';

const PERIOD_SECONDS = 30;
/** Steps accepted on either side of the server's own. */
const DRIFT_STEPS = 1;

function totpOf(secret: string, issuer = '', account = ''): TOTP {
  return new TOTP({
    issuer,
    label: account,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new secret: 160 random bits, in base32 as the apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The address an app reads from the QR code. */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  return totpOf(secret, issuer, account).toString();
}

/** The time step `code` belongs to, or null when it matches none near `now`. */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return null;
  const delta = totpOf(secret).validate({
    token,
    timestamp: now.getTime(),
    window: DRIFT_STEPS,
  });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The code of `now` (for tests and the operator's tools). */
export function totpCode(secret: string, now: Date): string {
  return totpOf(secret).generate({ timestamp: now.getTime() });
}
