/**
 * What the auditors judge with: the unit's disqualification reasons
 * (`justificativas`). A reason that was used is never deleted, only
 * deactivated, so every decision keeps naming it.
 */
import { boolean, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { federativeUnits } from './federative-units';

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
