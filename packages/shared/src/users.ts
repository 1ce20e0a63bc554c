/** User schemas shared by the users API and its forms (spec 3, 7). */
import { z } from 'zod';
import { cpfSchema } from './cpf';
import { errorCatalogue } from './errors';
import { pageOf, pageQueryParams } from './pagination';
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
  /** In the ADMIN's users list: whether the user has a second factor (app or passkey). */
  hasSecondFactor: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const userPageSchema = pageOf(userSchema);
export type UserPage = z.infer<typeof userPageSchema>;

/** `GET api/User`: a page of the unit's users, searched by name, e-mail or CPF. */
export const userQuerySchema = z.object({
  ...pageQueryParams({ defaultSize: 10 }),
  search: z.string().trim().max(120).optional(),
});
export type UserQuery = z.infer<typeof userQuerySchema>;

/**
 * `joana.silva@detran.df.gov.br` -> `j***@detran.df.gov.br`: enough to
 * recognise one's own address, not enough to collect others'.
 */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 1) return '***';
  return `${value.slice(0, 1)}***${value.slice(at)}`;
}

/** Spec 5 and 8: the text for a user not found, wherever a user is looked up (face enrolment too). */
export const USER_NOT_FOUND_MESSAGE = 'Usuário não encontrado!';

export const USER_ERRORS = errorCatalogue({
  USER_NOT_FOUND: { status: 404, message: USER_NOT_FOUND_MESSAGE },
  USER_EMAIL_TAKEN: { status: 409, message: 'Já existe um usuário com este e-mail.' },
  USER_CPF_TAKEN: { status: 409, message: 'Já existe um usuário com este CPF.' },
  DEMO_ROLE_NOT_ALLOWED: {
    status: 400,
    message: 'Usuários de demonstração não podem ser administradores.',
  },
  USER_CANNOT_CHANGE_SELF: {
    status: 400,
    message: 'Você não pode alterar a situação nem o perfil do seu próprio usuário.',
  },
});
