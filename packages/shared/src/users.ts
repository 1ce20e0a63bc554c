/** User schemas shared by the users API and its forms (spec 3, 7). */
import { z } from 'zod';
import { cpfSchema } from './cpf';
import { ROLES } from './roles';

export const REGISTER_STATUSES = ['enabled', 'disabled'] as const;
export type RegisterStatus = (typeof REGISTER_STATUSES)[number];

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'E-mail longo demais.')
  .pipe(z.email('E-mail inválido.'));

export const personNameSchema = z
  .string()
  .trim()
  .min(3, 'Informe o nome completo.')
  .max(120, 'Nome longo demais.');

export const createUserSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  cpf: cpfSchema,
  role: z.enum(ROLES, 'Selecione um perfil válido.'),
});
export type CreateUserInput = z.input<typeof createUserSchema>;

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  cpf: z.string(),
  federativeUnit: z.string(),
  roleDescription: z.enum(ROLES),
  registerStatus: z.enum(REGISTER_STATUSES),
  hasPassword: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const userPageSchema = z.object({
  items: z.array(userSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type UserPage = z.infer<typeof userPageSchema>;

/**
 * `joana.silva@detran.df.gov.br` -> `j***@detran.df.gov.br`: enough to
 * recognise one's own address, not enough to collect others'.
 */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 1) return '***';
  return `${value.slice(0, 1)}***${value.slice(at)}`;
}

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
