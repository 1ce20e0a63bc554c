/**
 * Keyed pseudonyms (HMAC-SHA-256) for personal data kept only to recognise a
 * repeat: rate-limit keys and, after the retention period, the CPFs of old
 * activity events. A plain hash of a CPF can be reversed by trying the
 * billion possible CPFs; a keyed one cannot without the key. The key is
 * derived from the installation's master key, so every instance agrees.
 */
import { createHmac } from 'node:crypto';

export type Pseudonymizer = (value: string) => string;

export function createPseudonymizer(masterKey: Buffer): Pseudonymizer {
  const key = createHmac('sha256', masterKey).update('pseudonym').digest();
  return (value) =>
    createHmac('sha256', key).update(value, 'utf8').digest('base64url').slice(0, 32);
}
