/**
 * Disqualification reasons (`justificativas`, spec 2): per unit, a code, the
 * text and whether it is offered. The auditors pick one (with a free-text
 * note) to disqualify an exam; a reason is never deleted, only deactivated,
 * so the decisions that used it keep naming it.
 */
import { z } from 'zod';
import { catalogueEntryFields, catalogueQuerySchema } from './catalogue';
import { errorCatalogue } from './errors';
import { pageOf } from './pagination';

export const REASON_CODE_PATTERN = /^[A-Za-z0-9._-]{1,20}$/;

export const REASON_ERRORS = errorCatalogue({
  REASON_NOT_FOUND: { status: 404, message: 'Justificativa não encontrada.' },
  REASON_CODE_TAKEN: {
    status: 409,
    message: 'Já existe uma justificativa com este código na unidade.',
  },
});
export type ReasonErrorCode = keyof typeof REASON_ERRORS;

const code = z
  .string()
  .trim()
  .min(1, 'Informe o código da justificativa.')
  .regex(
    REASON_CODE_PATTERN,
    'Use de 1 a 20 letras, números, ponto, hífen ou sublinhado no código.',
  );
const text = z
  .string()
  .trim()
  .min(5, 'Descreva a justificativa (no mínimo 5 caracteres).')
  .max(300, 'Use no máximo 300 caracteres na justificativa.');

export const disqualificationReasonSchema = z.object({
  id: z.string(),
  federativeUnit: z.string(),
  code: z.string(),
  text: z.string(),
  ...catalogueEntryFields,
});
export type DisqualificationReason = z.infer<typeof disqualificationReasonSchema>;

export const disqualificationReasonPageSchema = pageOf(disqualificationReasonSchema);
export type DisqualificationReasonPage = z.infer<typeof disqualificationReasonPageSchema>;

/** `search` looks in the code and the text. */
export const disqualificationReasonQuerySchema = catalogueQuerySchema;
export type DisqualificationReasonQuery = z.input<typeof disqualificationReasonQuerySchema>;

export const createDisqualificationReasonSchema = z.object({ code, text });
export type CreateDisqualificationReasonInput = z.infer<typeof createDisqualificationReasonSchema>;

export const updateDisqualificationReasonSchema = z.object({
  code: code.optional(),
  text: text.optional(),
  isActive: z.boolean().optional(),
});
export type UpdateDisqualificationReasonInput = z.infer<typeof updateDisqualificationReasonSchema>;

/** The reasons a new installation starts with in each unit (ADMIN edits them). */
export const DEFAULT_DISQUALIFICATION_REASONS: ReadonlyArray<{ code: string; text: string }> = [
  { code: 'D01', text: 'Outra pessoa presente no ambiente durante a prova.' },
  { code: 'D02', text: 'Uso de celular, anotações ou material de consulta.' },
  { code: 'D03', text: 'Comunicação com terceiros durante a prova.' },
  { code: 'D04', text: 'Candidato ausente da câmera por tempo prolongado.' },
  { code: 'D05', text: 'Pessoa diferente do candidato cadastrado realizando a prova.' },
];
