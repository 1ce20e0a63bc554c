/**
 * Realtime events: every change worth showing live (exam status, occurrence,
 * photo, check-in), written in the same transaction as the change and
 * announced by NOTIFY. The id orders a unit's events; a client resumes after
 * the last one it saw, hence the (unit, id) index.
 */
import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { federativeUnits } from './federative-units';

export const realtimeEvents = pgTable(
  'realtime_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    /** The exam's local as the delivery system sends it (`DEMO.POSTO01-S2`), or the check-in's post. */
    schedulingLocal: text('scheduling_local'),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('realtime_events_unit_id_idx').on(table.federativeUnit, table.id)],
);
