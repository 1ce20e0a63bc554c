/**
 * Secrets the server must read back (an identity provider's client secret),
 * sealed at rest with AES-256-GCM under a key derived from the installation's
 * master key: a copy of the database alone does not reveal them. The stored
 * form is `v1.<iv>.<ciphertext+tag>` in base64url.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

export type SecretBox = {
  seal(plain: string): string;
  open(sealed: string): string;
};

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function createSecretBox(masterKey: Buffer, purpose: string): SecretBox {
  const key = createHmac('sha256', masterKey).update(`secret-box:${purpose}`).digest();
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([
        cipher.update(plain, 'utf8'),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed) {
      const [version, iv, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !body)
        throw new Error('segredo guardado em formato desconhecido');
      const bytes = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
