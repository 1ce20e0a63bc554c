/** The signed-in user as `POST api/Auth` returns it and the web app keeps it (spec 3, 7). */
import { z } from 'zod';
import { ROLES } from './roles';

export const authUserSchema = z.object({
  name: z.string(),
  email: z.string(),
  cpf: z.string(),
  federativeUnit: z.string(),
  roleDescription: z.enum(ROLES),
  token: z.string().min(1),
  expiresAt: z.string(),
});
export type AuthUser = z.infer<typeof authUserSchema>;
