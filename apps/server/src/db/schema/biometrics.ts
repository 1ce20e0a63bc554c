/**
 * Face enrolments and verifications. Templates (descriptors) and captures are
 * sensitive personal data (LGPD Art. 11): both are stored encrypted with
 * AES-256-GCM; the captures live in the encrypted file store.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { federativeUnits } from './federative-units';

export const biometricTemplates = pgTable(
  'biometric_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    cpf: text('cpf').notNull(),
    /** AES-256-GCM of the descriptors (one per capture), base64. */
    templateSealed: text('template_sealed').notNull(),
    /**
     * descriptorVersionOf() the engine that computed the descriptors; null for
     * templates enrolled before it was recorded (LEGACY_DESCRIPTOR_VERSION).
     */
    descriptorVersion: text('descriptor_version'),
    /** Storage keys of the encrypted enrolment captures. */
    imageKeys: jsonb('image_keys').$type<string[]>().notNull(),
    enrolledBy: uuid('enrolled_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('biometric_templates_unit_cpf_key').on(table.federativeUnit, table.cpf)],
);

export const biometricVerifications = pgTable(
  'biometric_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit').notNull(),
    cpf: text('cpf').notNull(),
    requestedBy: uuid('requested_by'),
    deviceId: text('device_id'),
    schedulingLocal: text('scheduling_local'),
    match: boolean('match').notNull(),
    distance: real('distance'),
    threshold: real('threshold').notNull(),
    liveness: jsonb('liveness').$type<Record<string, unknown>>(),
    errorCode: text('error_code'),
    /** The decision: the face matched and the burst looked live. */
    verified: boolean('verified').notNull().default(false),
    /**
     * The verified picture, kept (encrypted) only where it is evidence: the
     * check-in and check-out of an examiner (`api/Auth/biometric-viewer-checkin`).
     */
    captureKey: text('capture_key'),
    /** The challenge (face_challenges) this take answered. */
    challengeId: uuid('challenge_id'),
    /**
     * The person's own factor that came with the face: 'session' (the
     * signed-in user is the person), 'password' (typed in the capture flow),
     * 'proctoring' (examiner 2's confirmed password); null = the face alone.
     */
    ownFactor: text('own_factor', { enum: ['session', 'password', 'proctoring'] }),
    /** When a check-in or check-out used this verification; each admits once. */
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('biometric_verifications_capture_idx')
      .on(table.captureKey)
      .where(sql`capture_key is not null`),
    index('biometric_verifications_unit_cpf_idx').on(
      table.federativeUnit,
      table.cpf,
      table.createdAt,
    ),
  ],
);

/**
 * A challenge issued before a capture: the random head movements the take
 * must show, bound to who asked, whose face and what for; valid until
 * `expiresAt`, used once (`usedAt`).
 */
export const faceChallenges = pgTable(
  'face_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    requestedBy: uuid('requested_by').notNull(),
    cpf: text('cpf').notNull(),
    purpose: text('purpose', {
      enum: ['enrolment', 'verification', 'check-in', 'check-out'],
    }).notNull(),
    steps: jsonb('steps').$type<string[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('face_challenges_expires_idx').on(table.expiresAt)],
);
