/** Values sealed the way they were before sealing bound them to their owner. */
import { createCipheriv, randomBytes } from 'node:crypto';

/** The earlier format: iv | tag | ciphertext, no associated data. */
export function legacySeal(key: Buffer, content: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const encrypted = Buffer.concat([cipher.update(content), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), encrypted]);
}
