/**
 * `GET myOpenCheckIns`: the open records of the signed-in examiner, from the
 * server, so that the room screen, the transfer and the home page find the
 * examiner's room after a new sign-in or on another device, whatever the
 * browser kept (the post saved in `EP_SCHEDULING_LOCAL` is cleared at logout).
 *
 * Access: the route admits examiners only; the records are the caller's own,
 * of the caller's unit (another unit's records are never read).
 */
import type { MyOpenCheckIn } from '@exame/shared';
import type { SessionUser } from '../../lib/actors';
import { recordById } from './check-in-records.service';
import type { CheckInDeps } from './check-in-rules';
import { listOpenRecordsOfUser } from './my-check-ins.repository';

/** The caller's open records: the one they are in the room of first, then the newest. */
export async function listMyOpenCheckIns(
  deps: CheckInDeps,
  actor: SessionUser,
): Promise<MyOpenCheckIn[]> {
  const found = await listOpenRecordsOfUser(deps.db, actor.federativeUnit, actor.id);
  const mine = await Promise.all(
    found.map(async (entry) => {
      const record = await recordById(deps, actor, entry.checkInId);
      if (!record) return null;
      return {
        record,
        viewerId: entry.examinerId,
        inRoom: entry.inRoom,
      };
    }),
  );
  return mine
    .filter((entry): entry is MyOpenCheckIn => entry !== null)
    .sort((a, b) => Number(b.inRoom) - Number(a.inRoom));
}
