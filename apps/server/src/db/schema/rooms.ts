/**
 * Exam rooms of a service post and their stations. An exam lands on a room by
 * its local (`DEMO.POSTO01-S2`: the post, then the room's code after the
 * first dash) and on a station by its `station` (the station's code); one
 * whose room or station no row names is listed apart, never lost. The units
 * with proctoring keep the room after the dash (CE keeps the whole local and
 * has proctoring disabled, spec 9).
 */
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { schedulingLocals } from './exams';
import { federativeUnits } from './federative-units';

export const examRooms = pgTable(
  'exam_rooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    schedulingLocalId: uuid('scheduling_local_id')
      .notNull()
      .references(() => schedulingLocals.id),
    /** The room's code in the exams' local, after the post and a dash (`S2`). */
    code: text('code').notNull(),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('exam_rooms_local_code_key').on(table.schedulingLocalId, table.code),
    index('exam_rooms_unit_idx').on(table.federativeUnit, table.schedulingLocalId),
  ],
);

export const examStations = pgTable(
  'exam_stations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    examRoomId: uuid('exam_room_id')
      .notNull()
      .references(() => examRooms.id, { onDelete: 'cascade' }),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    /** The station as the exams name it (`station`, e.g. `Estação 02`). */
    code: text('code').notNull(),
    /** The station's place on the board, from 1. */
    position: integer('position').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('exam_stations_room_code_key').on(table.examRoomId, table.code),
    index('exam_stations_room_position_idx').on(table.examRoomId, table.position),
  ],
);
