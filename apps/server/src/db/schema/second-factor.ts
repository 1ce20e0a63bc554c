/**
 * The second factor of a password sign-in (migration 0026): each account's
 * authenticator apps and passkeys, its recovery codes (hashes only), and the
 * step after a right password or a set-up under way.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './identity';

export const userFactors = pgTable(
  'user_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['totp', 'passkey'] }).notNull(),
    /** The name the person gave the device ("Celular", "Chave USB"). */
    label: text('label').notNull(),
    /** An app's secret, sealed with a key derived from the master key (lib/secret-box.ts). */
    totpSecret: text('totp_secret'),
    /** The last 30-second step whose code was accepted: a code works once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** A passkey's credential id (base64url), public key (COSE, base64url) and counter. */
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [
    index('user_factors_user_idx').on(table.userId),
    uniqueIndex('user_factors_credential_key')
      .on(table.credentialId)
      .where(sql`credential_id is not null`),
  ],
);

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('recovery_codes_user_code_key').on(table.userId, table.codeHash)],
);

/**
 * `sign-in`: a right password waiting for its second factor; `enrol-at-sign-in`:
 * a right password of a role that requires a factor the account lacks;
 * `account`: a signed-in person adding a factor (keyed by the session).
 */
export const mfaTickets = pgTable(
  'mfa_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyHash: text('key_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['sign-in', 'enrol-at-sign-in', 'account'] }).notNull(),
    /** A new app's secret (sealed) until its first code confirms it. */
    pendingTotpSecret: text('pending_totp_secret'),
    /** The challenge of the WebAuthn options last handed out (single use). */
    webauthnChallenge: text('webauthn_challenge'),
    failures: integer('failures').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('mfa_tickets_key').on(table.keyHash),
    index('mfa_tickets_expires_idx').on(table.expiresAt),
  ],
);
