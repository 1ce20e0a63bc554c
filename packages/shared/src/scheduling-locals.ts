/**
 * Scheduling locals (service posts, spec 3): the identifier rule and the
 * bodies of the management routes, shared by the server and the form.
 *
 * The identifier is how exams name their post (spec 7). Outside CE, the text
 * of an exam's local after the first dash is the room (`DEMO.POSTO01-S2`), so
 * a post identifier there cannot contain a dash; CE keeps the whole local, so
 * its identifiers may (`CE.FORTALEZA-CENTRO`).
 */
import { z } from 'zod';
import { catalogueEntryFields, catalogueQuerySchema } from './catalogue';
import { errorCatalogue } from './errors';
import { pageOf } from './pagination';

export const LOCAL_IDENTIFIER_MIN = 2;
export const LOCAL_IDENTIFIER_MAX = 80;
/** Units whose post identifiers may contain a dash (spec 7: CE keeps the whole local). */
export const DASH_IDENTIFIER_UNITS: readonly string[] = ['CE'];

export const LOCAL_IDENTIFIER_MESSAGES = {
  required: 'Informe o identificador do posto.',
  length: `Use de ${LOCAL_IDENTIFIER_MIN} a ${LOCAL_IDENTIFIER_MAX} caracteres no identificador.`,
  characters: 'O identificador aceita letras, números, ponto, sublinhado e hífen.',
  dash: 'Nesta unidade o identificador não pode ter hífen: nos exames, o que vem depois do hífen é a sala.',
} as const;

export const LOCAL_ERRORS = errorCatalogue({
  LOCAL_NOT_FOUND: { status: 404, message: 'Posto de atendimento não encontrado.' },
  LOCAL_IDENTIFIER_TAKEN: {
    status: 409,
    message: 'Já existe um posto com este identificador na unidade.',
  },
  LOCAL_IDENTIFIER_INVALID: { status: 400, message: LOCAL_IDENTIFIER_MESSAGES.characters },
  LOCAL_OTHER_UNIT: { status: 403, message: 'Você só pode consultar os postos da sua unidade.' },
});

const IDENTIFIER_CHARACTERS = /^[A-Za-z0-9._-]+$/;

/** What is wrong with a post identifier in a unit, or null when it is valid. */
export function localIdentifierProblem(unit: string, identifier: string): string | null {
  const value = identifier.trim();
  if (value === '') return LOCAL_IDENTIFIER_MESSAGES.required;
  if (value.length < LOCAL_IDENTIFIER_MIN || value.length > LOCAL_IDENTIFIER_MAX)
    return LOCAL_IDENTIFIER_MESSAGES.length;
  if (!IDENTIFIER_CHARACTERS.test(value)) return LOCAL_IDENTIFIER_MESSAGES.characters;
  if (value.includes('-') && !DASH_IDENTIFIER_UNITS.includes(unit.toUpperCase()))
    return LOCAL_IDENTIFIER_MESSAGES.dash;
  return null;
}

/** The unit-free part of the rule; the unit part is checked where the unit is known. */
export const localIdentifierSchema = z
  .string()
  .trim()
  .min(LOCAL_IDENTIFIER_MIN, LOCAL_IDENTIFIER_MESSAGES.length)
  .max(LOCAL_IDENTIFIER_MAX, LOCAL_IDENTIFIER_MESSAGES.length)
  .regex(IDENTIFIER_CHARACTERS, LOCAL_IDENTIFIER_MESSAGES.characters);

const description = z.string().trim().min(3, 'Informe o nome do posto.').max(120);
const address = z.string().trim().max(240).nullable().optional();

export const schedulingLocalSchema = z.object({
  id: z.string(),
  identifier: z.string(),
  description: z.string(),
  federativeUnit: z.string(),
  address: z.string().nullable(),
  ...catalogueEntryFields,
});
export type SchedulingLocal = z.infer<typeof schedulingLocalSchema>;

export const schedulingLocalPageSchema = pageOf(schedulingLocalSchema);
export type SchedulingLocalPage = z.infer<typeof schedulingLocalPageSchema>;

/** `search` looks in the name and the identifier. */
export const schedulingLocalQuerySchema = catalogueQuerySchema;

export const createSchedulingLocalSchema = z.object({
  identifier: localIdentifierSchema,
  description,
  address,
});
export type CreateSchedulingLocalInput = z.infer<typeof createSchedulingLocalSchema>;

export const updateSchedulingLocalSchema = z.object({
  identifier: localIdentifierSchema.optional(),
  description: description.optional(),
  address,
  isActive: z.boolean().optional(),
});
export type UpdateSchedulingLocalInput = z.infer<typeof updateSchedulingLocalSchema>;
