/** Identifiers of stored records (UUIDs) in addresses, checked with one pt-BR message. */
import { z } from 'zod';

export const ID_INVALID_MESSAGE = 'Identificador inválido.';

export const idSchema = z.uuid(ID_INVALID_MESSAGE);

/** Path parameters of a route that names one record: `/{id}`. */
export const idParamsSchema = z.object({ id: idSchema });

/** Path parameters of a route that names an exam by the exam system's scheduling id: `/{schedulingId}`. */
export const schedulingIdParamsSchema = z.object({
  schedulingId: z.string().trim().min(1).max(64),
});
