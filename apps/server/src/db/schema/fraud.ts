/**
 * Possible proxy test-takers (modules/fraud, migration 0030): each exam's
 * face while it is searchable, and the cases the one-to-many search forms.
 * Descriptors are biometric templates (LGPD Art. 11): never logged, purged
 * with the window (retention).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { examPhotos, exams } from './exams';
import { federativeUnits } from './federative-units';
import { users } from './identity';

/**
 * The face of who sat an exam (the mean of its consistent captures), for the
 * unit's search. `seq` takes a new value on every write (sequence
 * exam_faces_seq): a process's in-memory index catches up from it.
 */
export const examFaces = pgTable(
  'exam_faces',
  {
    examId: uuid('exam_id')
      .primaryKey()
      .references(() => exams.id, { onDelete: 'cascade' }),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    candidateCpf: text('candidate_cpf').notNull(),
    schedulingDate: timestamp('scheduling_date', { withTimezone: true }).notNull(),
    descriptor: real('descriptor').array().notNull(),
    descriptorVersion: text('descriptor_version').notNull(),
    /** How many captures the face was made of. */
    captures: integer('captures').notNull(),
    seq: bigint('seq', { mode: 'number' })
      .notNull()
      .default(sql`nextval('exam_faces_seq')`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('exam_faces_unit_seq_idx').on(table.federativeUnit, table.seq),
    index('exam_faces_unit_date_idx').on(table.federativeUnit, table.schedulingDate),
  ],
);

/** A case: exams of different CPFs with the same face. Closed as confirmed or dismissed, with a note. */
export const fraudCases = pgTable(
  'fraud_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    /** The case's number in its unit. */
    number: integer('number').notNull(),
    status: text('status', { enum: ['open', 'confirmed', 'dismissed'] })
      .notNull()
      .default('open'),
    highestSimilarity: real('highest_similarity').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    sentToAuditAt: timestamp('sent_to_audit_at', { withTimezone: true }),
    sentToAuditBy: uuid('sent_to_audit_by').references(() => users.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by').references(() => users.id),
    note: text('note'),
  },
  (table) => [
    uniqueIndex('fraud_cases_unit_number_key').on(table.federativeUnit, table.number),
    index('fraud_cases_unit_created_idx').on(
      table.federativeUnit,
      table.createdAt.desc(),
      table.id,
    ),
  ],
);

export const fraudCaseExams = pgTable(
  'fraud_case_exams',
  {
    caseId: uuid('case_id')
      .notNull()
      .references(() => fraudCases.id, { onDelete: 'cascade' }),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'fraud_case_exams_pkey', columns: [table.caseId, table.examId] }),
    index('fraud_case_exams_exam_idx').on(table.examId),
  ],
);

/** Two exams of a case whose faces match (examA < examB), with their closest captures. */
export const fraudCaseMatches = pgTable(
  'fraud_case_matches',
  {
    caseId: uuid('case_id')
      .notNull()
      .references(() => fraudCases.id, { onDelete: 'cascade' }),
    examA: uuid('exam_a')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    examB: uuid('exam_b')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    similarity: real('similarity').notNull(),
    captureA: uuid('capture_a').references(() => examPhotos.id, { onDelete: 'set null' }),
    captureB: uuid('capture_b').references(() => examPhotos.id, { onDelete: 'set null' }),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({
      name: 'fraud_case_matches_pkey',
      columns: [table.caseId, table.examA, table.examB],
    }),
    uniqueIndex('fraud_case_matches_pair_key').on(table.examA, table.examB),
  ],
);
