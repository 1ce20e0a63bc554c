/**
 * The refusal of an examiner who is already in a room (one open record per
 * examiner): it says which room, which post and since when, in words a person
 * reads, and still carries the record's id and date for the screen (spec 8).
 */
import { CHECK_IN_ERRORS, PERIOD_TIME_ZONE } from '@exame/shared';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { findOpenHoldingOfUser, type OpenHolding } from './my-check-ins.repository';

const time = new Intl.DateTimeFormat('pt-BR', {
  timeZone: PERIOD_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
});
const date = new Intl.DateTimeFormat('pt-BR', {
  timeZone: PERIOD_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

/** "Ana já tem uma entrada aberta em Sala 1 (S1), no posto Posto Sé (SP.POSTO01), desde 09:12 de 05/05/2026." */
export function alreadyOpenMessage(name: string, holding: OpenHolding): string {
  const post = `posto ${holding.schedulingLocalDescription} (${holding.schedulingLocal})`;
  const where = holding.examRoom
    ? `em ${holding.examRoom.name} (${holding.examRoom.code}), no ${post}`
    : `no ${post}`;
  const since = `${time.format(holding.openedAt)} de ${date.format(holding.openedAt)}`;
  return `${name} já tem uma entrada aberta ${where}, desde ${since}. Registre a saída antes de abrir outra.`;
}

/** 409 naming the open record the person is in the room of, or null when they are in none. */
export async function alreadyOpenError(
  db: Executor,
  person: { id: string; name: string },
): Promise<AppError | null> {
  const holding = await findOpenHoldingOfUser(db, person.id);
  if (!holding) return null;
  return AppError.from(
    CHECK_IN_ERRORS,
    'CHECKIN_ALREADY_OPEN',
    alreadyOpenMessage(person.name, holding),
  ).withFields({ id: holding.checkInId, checkInDate: holding.openedAt.toISOString() });
}
