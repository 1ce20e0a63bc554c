/**
 * Scheduling locals (service posts), exams with their status history,
 * occurrences and photos, and the API keys of the exam-delivery integration.
 * The indexes follow the queries: the exam list (unit + date, with status,
 * local and candidate filters) and the per-local report (unit + date range,
 * cancelled excluded, grouped by local).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { federativeUnits } from './federative-units';
import { searchable, users } from './identity';

export const schedulingLocals = pgTable(
  'scheduling_locals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    identifier: text('identifier').notNull(),
    description: text('description').notNull(),
    address: text('address'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('scheduling_locals_unit_identifier_key').on(table.federativeUnit, table.identifier),
    index('scheduling_locals_unit_description_idx').on(table.federativeUnit, table.description),
    // The post names' lookup by identifier ranges in code-point order (migration 0035).
    index('scheduling_locals_unit_identifier_c_idx').on(
      table.federativeUnit,
      sql`${table.identifier} collate "C"`,
    ),
  ],
);

export const exams = pgTable(
  'exams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    schedulingId: text('scheduling_id').notNull(),
    candidateName: text('candidate_name').notNull(),
    candidateCpf: text('candidate_cpf').notNull(),
    candidateRenach: text('candidate_renach'),
    schedulingDate: timestamp('scheduling_date', { withTimezone: true }).notNull(),
    status: text('status', {
      enum: ['scheduled', 'started', 'done', 'absence', 'cancelled'],
    }).notNull(),
    result: text('result', { enum: ['in_analysis', 'approved', 'reproved', 'disqualified'] }),
    score: numeric('score', { precision: 5, scale: 2, mode: 'number' }),
    /** metadata.schedulingLocal: the local's identifier as the delivery system sends it. */
    schedulingLocal: text('scheduling_local'),
    /** metadata.pendingAudit / absence / interrupted: counts added to the report counters. */
    pendingAudit: integer('pending_audit').notNull().default(0),
    absence: integer('absence').notNull().default(0),
    interrupted: integer('interrupted').notNull().default(0),
    room: text('room'),
    station: text('station'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** While set, the examiner has interrupted the exam on its station (spec 3 icon `interrupted`). */
    interruptedAt: timestamp('interrupted_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * The lowest face similarity of the exam's captures to its reference photo
     * (1 - distance), once the engine has read them: it ranks the audit queue
     * and never decides anything by itself.
     */
    faceMinSimilarity: real('face_min_similarity'),
    /**
     * The engine (descriptor version) that computed faceMinSimilarity: under
     * another engine the value counts as unknown (not shown, not ranked).
     */
    faceMinSimilarityVersion: text('face_min_similarity_version'),
    /**
     * The name as the list's search compares it (migration 0028): a leading
     * space, lower case, no accents, so that a search is a word prefix found
     * through the trigram index.
     */
    searchName: text('search_name').generatedAlwaysAs(
      sql`' ' || ${searchable(sql`candidate_name`)}`,
    ),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('exams_unit_scheduling_id_key').on(table.federativeUnit, table.schedulingId),
    // Exam list and report: unit + date range, cancelled excluded from the report.
    // INCLUDE (search_name) in migration 0036: a name search's period is tested in the index.
    index('exams_unit_date_idx').on(table.federativeUnit, table.schedulingDate, table.id),
    index('exams_report_idx')
      .on(table.federativeUnit, table.schedulingDate, table.schedulingLocal)
      .where(sql`status <> 'cancelled'`),
    index('exams_unit_status_date_idx').on(
      table.federativeUnit,
      table.status,
      table.schedulingDate,
    ),
    index('exams_unit_local_date_idx').on(
      table.federativeUnit,
      table.schedulingLocal,
      table.schedulingDate,
    ),
    // A post's exams whatever their room (DEMO.POSTO01-S2 is DEMO.POSTO01's): the room board
    // polls its post's day.
    index('exams_unit_post_date_idx').on(
      table.federativeUnit,
      sql`split_part(${table.schedulingLocal}, '-', 1)`,
      table.schedulingDate,
    ),
    index('exams_unit_cpf_idx').on(table.federativeUnit, table.candidateCpf),
    index('exams_unit_search_name_idx').using(
      'gin',
      table.federativeUnit,
      sql`${table.searchName} gin_trgm_ops`,
    ),
    index('exams_unit_status_result_date_idx').on(
      table.federativeUnit,
      table.status,
      table.result,
      table.schedulingDate,
    ),
    // INCLUDE (scheduling_date) in migration 0034: the name order's period is tested in the index.
    index('exams_unit_name_order_idx').on(table.federativeUnit, table.candidateName, table.id),
    index('exams_audit_queue_idx')
      .on(table.federativeUnit, table.schedulingDate, table.schedulingId)
      .where(sql`status = 'done' and result = 'in_analysis'`),
  ],
);

/**
 * The report's maintained counters: the exams of each unit, São Paulo day
 * (the day of the report's periods) and scheduling local as sent, split by
 * status and result, with their metadata sums. Every counter of spec 4 is
 * derived from these rows by the report's one rule table (`counterSql`), so
 * the rules are written once and a change of REPORT_LOCAL_PREFIXES needs no
 * rebuild. Kept by the statement triggers of migration 0016 in the same
 * transaction as every insert, update and delete of `exams`; `npm run
 * counters:check` compares them with a full recount and `counters:rebuild`
 * recomputes them. A null local and a null result are stored as ''.
 */
export const examDayCounts = pgTable(
  'exam_day_counts',
  {
    federativeUnit: text('federative_unit').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    schedulingLocal: text('scheduling_local').notNull(),
    status: text('status').notNull(),
    result: text('result').notNull(),
    exams: bigint('exams', { mode: 'number' }).notNull().default(0),
    pendingAudit: bigint('pending_audit', { mode: 'number' }).notNull().default(0),
    absence: bigint('absence', { mode: 'number' }).notNull().default(0),
    interrupted: bigint('interrupted', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: 'exam_day_counts_pkey',
      columns: [table.federativeUnit, table.day, table.schedulingLocal, table.status, table.result],
    }),
  ],
);

export const examStatusHistory = pgTable(
  'exam_status_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    fromResult: text('from_result'),
    toResult: text('to_result'),
    source: text('source', { enum: ['integration', 'import', 'user', 'seed'] }).notNull(),
    actorId: uuid('actor_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('exam_status_history_exam_idx').on(table.examId, table.at)],
);

export const examPhotos = pgTable(
  'exam_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    capturedAt: timestamp('captured_at', { withTimezone: true }).notNull(),
    /** A capture made during the exam, or the candidate's reference photo (the picture on file). */
    kind: text('kind', { enum: ['capture', 'reference'] })
      .notNull()
      .default('capture'),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    /**
     * What the face engine read in it: pending until analysed, then `found`
     * (with its descriptor) or `no_face` (no usable face: the auditor looks).
     */
    faceStatus: text('face_status', { enum: ['pending', 'found', 'no_face'] })
      .notNull()
      .default('pending'),
    faceDescriptor: real('face_descriptor').array(),
    /**
     * The engine that made the reading (FaceService.descriptorVersion). A
     * reading of another version, or of none (stored before versions), is
     * not comparable with the running engine's and is read again.
     */
    faceDescriptorVersion: text('face_descriptor_version'),
    faceAnalysedAt: timestamp('face_analysed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('exam_photos_exam_idx').on(table.examId, table.capturedAt),
    uniqueIndex('exam_photos_exam_sha_key').on(table.examId, table.kind, table.sha256),
    // One reference photo per exam; a new one replaces it.
    uniqueIndex('exam_photos_one_reference_key')
      .on(table.examId)
      .where(sql`kind = 'reference'`),
    index('exam_photos_face_pending_idx')
      .on(table.examId)
      .where(sql`face_status = 'pending'`),
  ],
);

export const occurrences = pgTable(
  'occurrences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    /** The delivery system's own id, so a retried push does not duplicate it. */
    externalId: text('external_id'),
    type: text('type').notNull(),
    description: text('description').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    photoId: uuid('photo_id').references(() => examPhotos.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /*
     * Copies of the exam's unit, scheduling date, local as sent ('' for none)
     * and whether it counts (not cancelled), for the dashboard's panel: set
     * and kept by the triggers of migration 0028 (never written here), so
     * they are not null in the database though optional on insert.
     */
    federativeUnit: text('federative_unit'),
    schedulingDate: timestamp('scheduling_date', { withTimezone: true }),
    schedulingLocal: text('scheduling_local'),
    counted: boolean('counted'),
  },
  (table) => [
    index('occurrences_exam_idx').on(table.examId, table.occurredAt),
    index('occurrences_panel_idx')
      .on(table.federativeUnit, table.schedulingDate.desc(), table.occurredAt.desc(), table.id)
      .where(sql`counted`),
    index('occurrences_panel_local_idx')
      .on(
        table.federativeUnit,
        table.schedulingLocal,
        table.schedulingDate.desc(),
        table.occurredAt.desc(),
        table.id,
      )
      .where(sql`counted`),
    uniqueIndex('occurrences_exam_external_key').on(table.examId, table.externalId),
  ],
);

export const integrationApiKeys = pgTable(
  'integration_api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    name: text('name').notNull(),
    /** The first characters, shown to tell keys apart; the key itself is never stored. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [uniqueIndex('integration_api_keys_hash_key').on(table.keyHash)],
);
