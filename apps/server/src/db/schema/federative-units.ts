import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const federativeUnits = pgTable('federative_units', {
  uf: text('uf').primaryKey(),
  name: text('name').notNull(),
  isActive: boolean('is_active').notNull(),
  isProctoringEnable: boolean('is_proctoring_enable').notNull(),
  theme: text('theme'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
