/**
 * Check-in records: the custody of a service post's room. A record is opened
 * by one or two examiners (each admitted, where the unit requires it, by a
 * face verification whose capture is kept), lives while they work and is
 * closed when each has checked out (by face where required) or by an ADMIN
 * with a written reason. What happens to a record is appended to its history,
 * never written over.
 */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { biometricVerifications } from './biometrics';
import { schedulingLocals } from './exams';
import { federativeUnits } from './federative-units';
import { searchable, users } from './identity';
import { examRooms } from './rooms';

export const checkIns = pgTable(
  'check_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    schedulingLocalId: uuid('scheduling_local_id')
      .notNull()
      .references(() => schedulingLocals.id),
    /** The post identifier when the record was opened (`DEMO.POSTO01`). */
    schedulingLocal: text('scheduling_local').notNull(),
    /**
     * The room of the post this record holds; none when the post had no rooms
     * at check-in: the record then holds every room of the post.
     */
    examRoomId: uuid('exam_room_id').references(() => examRooms.id),
    status: text('status', { enum: ['open', 'closed', 'force_closed'] })
      .notNull()
      .default('open'),
    openedBy: uuid('opened_by')
      .notNull()
      .references(() => users.id),
    deviceId: text('device_id'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by').references(() => users.id),
    closeReason: text('close_reason'),
    /** Whether the unit required face validation when the record was opened. */
    faceValidationRequired: boolean('face_validation_required').notNull(),
  },
  (table) => [
    // The search's order, whole (newest first, then id), by unit, post and open ones (migration 0029).
    index('check_ins_unit_opened_idx').on(table.federativeUnit, table.openedAt, table.id),
    index('check_ins_unit_local_idx').on(
      table.federativeUnit,
      table.schedulingLocal,
      table.openedAt,
      table.id,
    ),
    index('check_ins_unit_open_idx')
      .on(table.federativeUnit, table.openedAt, table.id)
      .where(sql`status = 'open'`),
    index('check_ins_unit_closed_idx')
      .on(table.federativeUnit, table.openedAt, table.id)
      .where(sql`status <> 'open'`),
    // One open record per room: a second examiner joins it (update-checkIn) instead.
    uniqueIndex('check_ins_one_open_per_room_key')
      .on(table.examRoomId)
      .where(sql`status = 'open' and exam_room_id is not null`),
  ],
);

export const checkInViewers = pgTable(
  'check_in_viewers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    checkInId: uuid('check_in_id')
      .notNull()
      .references(() => checkIns.id, { onDelete: 'cascade' }),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    /** Examiners who came in together (one transaction, one time) keep the order they were given. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    cpf: text('cpf').notNull(),
    checkInDate: timestamp('check_in_date', { withTimezone: true }).notNull().defaultNow(),
    /** The face verification that admitted the examiner, and its capture (encrypted file). */
    verificationId: uuid('verification_id').references(() => biometricVerifications.id, {
      onDelete: 'set null',
    }),
    faceKey: text('face_key'),
    /**
     * How the examiner proved who they are besides the face: 'session',
     * 'password', 'proctoring' (examiner 2's confirmed password) or
     * 'face_only' (the unit allows it); null before this was recorded.
     */
    admittedBy: text('admitted_by', { enum: ['session', 'password', 'proctoring', 'face_only'] }),
    checkOutDate: timestamp('check_out_date', { withTimezone: true }),
    checkOutValidated: boolean('check_out_validated').notNull().default(false),
    checkOutVerificationId: uuid('check_out_verification_id').references(
      () => biometricVerifications.id,
      { onDelete: 'set null' },
    ),
    checkOutFaceKey: text('check_out_face_key'),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    /**
     * In the room now: the record is open, the examiner has not checked out
     * and was not removed. One examiner holds at most one open record: the
     * partial unique index decides between two check-ins at once.
     */
    active: boolean('active').notNull().default(true),
  },
  (table) => [
    index('check_in_viewers_record_idx').on(table.checkInId, table.checkInDate, table.seq),
    uniqueIndex('check_in_viewers_one_open_key')
      .on(table.userId)
      .where(sql`active`),
    index('check_in_viewers_unit_cpf_idx').on(table.federativeUnit, table.cpf),
    // The search by the examiner's name, without case or accents (migration 0029).
    index('check_in_viewers_unit_search_name_idx').using(
      'gin',
      table.federativeUnit,
      sql`${searchable(table.name)} gin_trgm_ops`,
    ),
  ],
);

export const checkInEvents = pgTable(
  'check_in_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order of events written in one transaction (they share its time). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    checkInId: uuid('check_in_id')
      .notNull()
      .references(() => checkIns.id, { onDelete: 'cascade' }),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    type: text('type', {
      enum: [
        'open',
        'viewer_add',
        'viewer_remove',
        'viewer_check_out',
        'close',
        'force_close',
        'examiner_transfer',
      ],
    }).notNull(),
    actorId: uuid('actor_id').references(() => users.id),
    /** The examiner the event concerns, when it concerns one. */
    viewerId: uuid('viewer_id').references(() => checkInViewers.id, { onDelete: 'set null' }),
    reason: text('reason'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('check_in_events_record_idx').on(table.checkInId, table.seq)],
);

/**
 * Examiner 2's confirmation (`api/Auth/viewer-checkin`): the proof that
 * examiner 1 (`issuedTo`, in the session `issuedSession` names) typed
 * examiner 2's (`personId`) e-mail and
 * password, for one admission at one post (`schedulingLocal`) and, when it
 * was asked for an open record (adding to it, or receiving it by transfer),
 * that record (`checkInId`; none: opening a new record at the post). Used
 * once (`usedAt`, with the record it admitted to), within its lifetime; only
 * the SHA-256 of the token is kept.
 */
export const proctoringTokens = pgTable(
  'proctoring_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    issuedTo: uuid('issued_to')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the session's token hash: the session it was given in, never its key. */
    issuedSession: text('issued_session').notNull(),
    personId: uuid('person_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    schedulingLocal: text('scheduling_local').notNull(),
    checkInId: uuid('check_in_id').references(() => checkIns.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    usedFor: uuid('used_for').references(() => checkIns.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('proctoring_tokens_token_key').on(table.tokenHash),
    index('proctoring_tokens_expires_idx').on(table.expiresAt),
  ],
);
