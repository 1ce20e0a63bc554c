/** Users, sessions, one-time password links, sign-in throttling, mail outbox and the activity log. */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { federativeUnits } from './federative-units';

/**
 * A text as the searches compare it (the trigram indexes of migration 0029):
 * lower case, without accents, the form of `exams.search_name` (0028). The
 * query side writes the same expression, so that the index matches it, and
 * compares it with `searchForm()` of what the person typed.
 */
export function searchable(text: SQLWrapper): SQL {
  return sql`lower(translate(${text}, 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ', 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy'))`;
}

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    /** Eleven digits, no separators. */
    cpf: text('cpf').notNull(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    role: text('role', { enum: ['ADMIN', 'auditor', 'VIEWER', 'ROOM_INSPECTOR'] }).notNull(),
    registerStatus: text('register_status', { enum: ['enabled', 'disabled'] })
      .notNull()
      .default('enabled'),
    /** argon2id; null until the user sets a first password through the register link. */
    passwordHash: text('password_hash'),
    isDemo: boolean('is_demo').notNull().default(false),
    createdBy: uuid('created_by'),
    /** Name and e-mail in the search's form, one line each (migration 0031). */
    searchText: text('search_text').generatedAlwaysAs(
      sql`${searchable(sql`name`)} || E'\\n' || ${searchable(sql`email`)}`,
    ),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    uniqueIndex('users_cpf_key').on(table.cpf),
    index('users_unit_name_idx').on(table.federativeUnit, table.name),
    // The activity search's actor: part of the name or e-mail (migration 0031).
    index('users_search_text_idx').using('gin', sql`${table.searchText} gin_trgm_ops`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    /** The last proof of who the person is (sign-in, re-authentication); sensitive actions need a recent one. */
    provenAt: timestamp('proven_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (table) => [
    index('sessions_user_idx')
      .on(table.userId)
      .where(sql`revoked_at is null`),
  ],
);

export const passwordLinks = pgTable(
  'password_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['reset', 'register'] }).notNull(),
    /** SHA-256 of the token sent by e-mail. */
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('password_links_token_key').on(table.tokenHash),
    index('password_links_user_idx').on(table.userId),
  ],
);

export const loginThrottle = pgTable('login_throttle', {
  /** `account:<email>` or `ip:<address>`. */
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
});

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    /** Bodies hold `{{link}}` where the secret link goes; the link itself is never in them. */
    text: text('text').notNull(),
    html: text('html').notNull(),
    /**
     * The secret link (it carries a one-time token), kept only while it is
     * useful: cleared on delivery and when it expires, whichever comes first.
     */
    link: text('link'),
    linkExpiresAt: timestamp('link_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (table) => [
    index('mail_outbox_pending_idx')
      .on(table.createdAt)
      .where(sql`sent_at is null`),
  ],
);

/**
 * Browsers where a user signed in successfully (OWASP "device cookies"): while
 * an attacker has the account locked, the owner's own browser still gets
 * through, with a failure counter of its own. Only the token's hash is kept.
 */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('trusted_devices_user_idx').on(table.userId)],
);

/**
 * Fixed-window request counters shared by every instance. The key names the
 * rule and a pseudonym of the subject (address, account, CPF), never the
 * subject itself.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});

/**
 * Requests for a reset or register link, answered before any account lookup
 * and worked off afterwards, so the answer and its timing say nothing about
 * the account. A row lives only until it is processed.
 */
export const passwordLinkRequests = pgTable(
  'password_link_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['reset', 'register'] }).notNull(),
    /** The e-mail or CPF as requested. */
    value: text('value').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
  },
  (table) => [index('password_link_requests_time_idx').on(table.requestedAt)],
);

/**
 * The activity log, append-only evidence (migration 0017): the triggers give
 * each event its `seq`, `prev_hash` and `hash` in its unit's chain (the
 * defaults here are placeholders the trigger replaces) and refuse every
 * UPDATE and DELETE but the retention redaction of a CPF.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    actorId: uuid('actor_id'),
    federativeUnit: text('federative_unit'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    prevHash: text('prev_hash'),
    hash: text('hash').notNull().default(''),
    /** What the event is about (`user:<id>`, `exam:<schedulingId>`, `cpf:<pseudonym>`, a route). */
    target: text('target'),
    deviceId: text('device_id'),
    appVersion: text('app_version'),
    /** The web client's id of the event: a retried batch is not stored twice. */
    clientId: uuid('client_id'),
    /** When it happened on the client (web events); the server's time otherwise. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The hash chain the event was appended to (set by the append trigger):
     * the unit's, or `<unit>/web` for the browser's events (migration 0021).
     */
    chain: text('chain').notNull().default(''),
  },
  (table) => [
    // The search's filters, each in the search's order, newest first (migration 0029).
    index('activity_log_unit_newest_idx').on(
      table.federativeUnit,
      table.createdAt,
      table.chain,
      table.seq,
    ),
    index('activity_log_unit_type_newest_idx').on(
      table.federativeUnit,
      table.type,
      table.createdAt,
      table.chain,
      table.seq,
    ),
    index('activity_log_unit_actor_newest_idx').on(
      table.federativeUnit,
      table.actorId,
      table.createdAt,
      table.chain,
      table.seq,
    ),
    index('activity_log_unit_text_search_idx').using(
      'gin',
      table.federativeUnit,
      sql`${searchable(table.target)} gin_trgm_ops`,
      sql`${searchable(sql`${table.payload}::text`)} gin_trgm_ops`,
    ),
    // A text with a colon, as a key (`exam:<id>`), by what follows the target's first colon (migration 0033).
    index('activity_log_unit_target_key_idx').on(
      table.federativeUnit,
      sql`substring(${searchable(table.target)} from '^[^:]*:(.*)$') text_pattern_ops`,
      sql`split_part(${searchable(table.target)}, ':', 1)`,
    ),
    index('activity_log_unit_target_colons_idx')
      .using('gin', table.federativeUnit, sql`${searchable(table.target)} gin_trgm_ops`)
      .where(sql`${table.target} like '%:%:%'`),
    // A CPF as the target: the details that name the person.
    index('activity_log_cpf_pseudonym_idx')
      .on(sql`(${table.payload} ->> 'cpfPseudonym')`)
      .where(sql`(${table.payload} ->> 'cpfPseudonym') is not null`),
    index('activity_log_user_id_idx').on(sql`(${table.payload} ->> 'userId')`),
    index('activity_log_user_ids_idx').using('gin', sql`(${table.payload} -> 'userIds')`),
    uniqueIndex('activity_log_chain_seq_idx').on(table.chain, table.seq),
    uniqueIndex('activity_log_actor_client_idx')
      .on(table.actorId, table.clientId)
      .where(sql`${table.clientId} is not null`),
    index('activity_log_target_idx').on(table.target),
  ],
);

/**
 * The last event of each chain (`chain` is the unit, '' for events with none,
 * `<unit>/web` for the browser's events), and the last one retention dropped
 * from its start (0 and '' when none).
 */
export const activityChainHeads = pgTable('activity_chain_heads', {
  chain: text('chain').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  baseSeq: bigint('base_seq', { mode: 'number' }).notNull().default(0),
  baseHash: text('base_hash').notNull().default(''),
});

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
