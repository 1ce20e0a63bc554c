/**
 * The audit of finished exams: who claimed which exam (`load_audit`) and
 * until when, and what the auditors judge with: the unit's disqualification reasons
 * (`justificativas`). A reason that was used is never deleted, only
 * deactivated, so every decision keeps naming it.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { examPhotos, exams } from './exams';
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

/**
 * An auditor's decision on an exam (`send_result`): release the result from
 * the score (approved or reproved) or disqualify with a reason and a note.
 * A decision that needs a second auditor (the two-person rule for
 * disqualification, or an approval drawn for re-check) waits in
 * `awaiting_confirmation` with the exam still in analysis; a different
 * auditor confirms it (`effective`) or rejects it (`rejected`, the exam goes
 * back to the queue). An ADMIN may reopen an effective decision with a
 * reason (`reopened`): the row stays, so the history is whole. At most one
 * decision per exam is open (awaiting or effective): two auditors deciding
 * at once leave exactly one.
 */
export const auditDecisions = pgTable(
  'audit_decisions',
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
    outcome: text('outcome', { enum: ['approved', 'reproved', 'disqualified'] }).notNull(),
    reasonId: uuid('reason_id').references(() => disqualificationReasons.id),
    note: text('note'),
    state: text('state', {
      enum: ['awaiting_confirmation', 'effective', 'rejected', 'reopened'],
    }).notNull(),
    /** Why it waits for a second auditor. */
    confirmation: text('confirmation', { enum: ['two_person', 'recheck'] }),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedBy: uuid('confirmed_by').references(() => users.id),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    confirmationNote: text('confirmation_note'),
    reopenedBy: uuid('reopened_by').references(() => users.id),
    reopenedAt: timestamp('reopened_at', { withTimezone: true }),
    reopenReason: text('reopen_reason'),
  },
  (table) => [
    uniqueIndex('audit_decisions_one_open_key')
      .on(table.examId)
      .where(sql`state in ('awaiting_confirmation', 'effective')`),
    index('audit_decisions_exam_idx').on(table.examId, table.decidedAt),
    index('audit_decisions_auditor_idx').on(table.auditorId, table.decidedAt),
  ],
);

/**
 * The photo audit: an auditor marks a capture compatible or incompatible
 * with the candidate's reference photo. The last mark of a capture counts
 * (each change is in the activity log with what it said before).
 */
export const photoMarks = pgTable(
  'photo_marks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    photoId: uuid('photo_id')
      .notNull()
      .references(() => examPhotos.id, { onDelete: 'cascade' }),
    auditorId: uuid('auditor_id')
      .notNull()
      .references(() => users.id),
    verdict: text('verdict', { enum: ['compatible', 'incompatible'] }).notNull(),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('photo_marks_photo_key').on(table.photoId),
    index('photo_marks_auditor_idx').on(table.auditorId, table.markedAt),
  ],
);

/**
 * A certificate of a finished exam: what it states is written once, at
 * issue (`content`), so that it never changes under the reader; its
 * verification code is random (80 bits) and unique. It is revoked, never
 * deleted, when the exam is later disqualified or its decision reopened.
 * At most one certificate per exam is valid at a time.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    content: jsonb('content').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    /** The user who issued it; null when the integration did. */
    issuedBy: uuid('issued_by').references(() => users.id),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason', { enum: ['disqualified', 'reopened'] }),
  },
  (table) => [
    uniqueIndex('certificates_code_key').on(table.code),
    uniqueIndex('certificates_one_valid_key')
      .on(table.examId)
      .where(sql`revoked_at is null`),
  ],
);
