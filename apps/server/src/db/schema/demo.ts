/**
 * The demonstration candidates of the DEMO unit (spec 2, 6: the admin-guarded
 * `/demo-register/` … `/demo-finished/` screens): who they are, their contact,
 * the explicit consent to the processing of biometric data (LGPD Art. 11:
 * when, which version of the text, and its SHA-256) and the last
 * verification an ADMIN of DEMO ran for them. Their face enrolment lives with
 * every other in `biometric_templates` (DEMO, CPF). DEMO only, by constraint.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  date,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { DemoVerification } from '@exame/shared';
import { federativeUnits } from './federative-units';
import { users } from './identity';

export const demoCandidates = pgTable(
  'demo_candidates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    federativeUnit: text('federative_unit')
      .notNull()
      .references(() => federativeUnits.uf),
    cpf: text('cpf').notNull(),
    name: text('name').notNull(),
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    email: text('email'),
    phone: text('phone'),
    /** When the candidate gave the consent, to which version of the text, and the text's SHA-256. */
    consentAt: timestamp('consent_at', { withTimezone: true }),
    consentVersion: text('consent_version'),
    consentTextSha256: text('consent_text_sha256'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastVerification: jsonb('last_verification').$type<DemoVerification>(),
  },
  (table) => [
    uniqueIndex('demo_candidates_unit_cpf_key').on(table.federativeUnit, table.cpf),
    check('demo_candidates_demo_unit', sql`${table.federativeUnit} = 'DEMO'`),
  ],
);
