/**
 * Single sign-on with a unit's identity providers (OpenID Connect): the
 * providers an ADMIN configures, the sign-ins under way, and which provider
 * identity is which user (migration 0024).
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { federativeUnits } from './federative-units';
import { users } from './identity';

export const identityProviders = pgTable(
  'identity_providers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    /** What the sign-in button says ("gov.br", "Rede do Estado"). */
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    /** Sealed with a key derived from the master key (lib/secret-box.ts); null for a public client. */
    clientSecret: text('client_secret'),
    /** The spec's authorized domains: lower-case e-mail domains; empty means any. */
    allowedDomains: text('allowed_domains')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The claim that carries the person's CPF (gov.br: `sub`); null when the provider has none. */
    cpfClaim: text('cpf_claim'),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('identity_providers_unit_idx').on(table.federativeUnit, table.name)],
);

/**
 * A sign-in sent to a provider and not back yet (10 minutes), then, once the
 * provider answered and the user is known, the one-time hand-off the browser
 * exchanges for its session (60 seconds). Only hashes of state and hand-off.
 */
export const ssoLogins = pgTable(
  'sso_logins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    stateHash: text('state_hash').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    /** Hash of the cookie set at the start: only the browser that started a sign-in finishes it. */
    browserHash: text('browser_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the provider's answer was used: a second answer with the same state is refused. */
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    handoffHash: text('handoff_hash'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    handoffExpiresAt: timestamp('handoff_expires_at', { withTimezone: true }),
    /** The provider's end-session address for this sign-in, when it has one. */
    logoutUrl: text('logout_url'),
    /** `reauth`: a new proof for a session of the same person, not a new session (migration 0027). */
    purpose: text('purpose', { enum: ['sign-in', 'reauth'] })
      .notNull()
      .default('sign-in'),
  },
  (table) => [
    uniqueIndex('sso_logins_state_key').on(table.stateHash),
    uniqueIndex('sso_logins_handoff_key')
      .on(table.handoffHash)
      .where(sql`handoff_hash is not null`),
    index('sso_logins_expires_idx').on(table.expiresAt),
  ],
);

/** A provider's subject linked to a user on first use (by CPF or verified e-mail). */
export const userIdentities = pgTable(
  'user_identities',
  {
    providerId: uuid('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.providerId, table.subject] }),
    index('user_identities_user_idx').on(table.userId),
  ],
);
