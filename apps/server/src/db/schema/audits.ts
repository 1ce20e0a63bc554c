/**
 * The audit of finished exams: who claimed which exam (`load_audit`) and
 * until when, and what the auditors judge with: the unit's disqualification reasons
 * (`justificativas`). A reason that was used is never deleted, only
 * deactivated, so every decision keeps naming it.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { exams } from './exams';
import { federativeUnits } from './federative-units';
import { users } from './identity';

export const disqualificationReasons = pgTable(
  'disqualification_reasons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    /** A short code the auditors and the reports use (`D01`). */
    code: text('code').notNull(),
    /** The reason as the candidate's result will state it. */
    text: text('text').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('disqualification_reasons_unit_code_key').on(table.federativeUnit, table.code),
  ],
);

/**
 * An auditor's claim on an exam of the audit queue (`load_audit`). At most one
 * claim per exam is live (not ended); a live claim past `expiresAt` no longer
 * holds the exam and is ended ('expired') by the next claim. Rows are kept:
 * they are the list of the auditors who worked on the exam.
 */
export const auditClaims = pgTable(
  'audit_claims',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    auditorId: uuid('auditor_id')
      .notNull()
      .references(() => users.id),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason', { enum: ['released', 'expired', 'decided'] }),
  },
  (table) => [
    uniqueIndex('audit_claims_one_live_key')
      .on(table.examId)
      .where(sql`ended_at is null`),
    index('audit_claims_auditor_idx').on(table.auditorId, table.claimedAt),
  ],
);
