/**
 * argon2id password hashing (security guide: >= 19 MiB, t=2, p=1). The whole
 * password is hashed (no truncation). Verification of an unknown account runs
 * against a fixed dummy hash so that the answer takes about as long.
 */
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2 as Algorithm;

export type Argon2Cost = { memoryCost: number; timeCost: number };

export function createPasswordHasher(cost: Argon2Cost) {
  const options = {
    algorithm: ARGON2ID,
    memoryCost: cost.memoryCost,
    timeCost: cost.timeCost,
    parallelism: 1,
  };
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hash('senha-inexistente-para-equalizar-tempo', options));

  return {
    hash: (password: string) => hash(password, options),
    verify: async (passwordHash: string, password: string) => {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
    /** Spends the time of one verification and always fails. */
    verifyNothing: async (password: string) => {
      await verify(await dummyHash(), password).catch(() => false);
      return false as const;
    },
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
