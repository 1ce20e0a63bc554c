import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const federativeUnits = pgTable('federative_units', {
  uf: text('uf').primaryKey(),
  name: text('name').notNull(),
  isActive: boolean('is_active').notNull(),
  isProctoringEnable: boolean('is_proctoring_enable').notNull(),
  theme: text('theme'),
  /**
   * The unit lets a person enter a room's custody by face alone (no session
   * or password of their own); off by default, and a record admitted that way
   * says so.
   */
  faceAloneAllowed: boolean('face_alone_allowed').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
