/** The activity log: who did what, written in the same transaction as the change it records. */
import type { Database, Executor } from '../../db/client';
import { activityLog } from '../../db/schema/index';

export type ActivityType =
  | 'user_add'
  | 'user_enable'
  | 'user_disable'
  | 'user_role_change'
  | 'password_set'
  | 'local_add'
  | 'local_update'
  | 'local_deactivate'
  | 'reason_add'
  | 'reason_update'
  | 'reason_deactivate'
  | 'api_key_create'
  | 'api_key_revoke'
  | 'exam_import'
  | 'photo_view'
  | 'biometric_enrol'
  | 'biometric_template_upgrade'
  | 'face_image_view'
  | 'cpf_view'
  | 'retention_purge'
  | 'checkin_open'
  | 'checkin_update'
  | 'checkin_close'
  | 'checkin_force_close'
  | 'room_add'
  | 'room_update'
  | 'room_action'
  | 'room_occurrence'
  | 'load_audit'
  | 'release_audit'
  | 'reopen_audit'
  | 'photo_mark'
  | 'certificate_issue'
  | 'certificate_revoke'
  | 'demo_candidate_add'
  | 'demo_consent'
  | 'demo_wipe'
  | 'load_exam'
  | 'stream_log'
  | 'page_view'
  | 'error'
  | 'examiner_transfered'
  | 'send_result';

export type ActivityEvent = {
  type: ActivityType;
  actorId: string | null;
  federativeUnit: string | null;
  payload?: Record<string, unknown>;
};

export async function insertActivity(db: Executor, event: ActivityEvent): Promise<void> {
  await db.insert(activityLog).values({
    type: event.type,
    actorId: event.actorId,
    federativeUnit: event.federativeUnit,
    payload: event.payload ?? {},
  });
}

/** What a change reports: its result, and the activity event that records it. */
export type RecordedChange<T> = {
  result: T;
  type: ActivityType;
  payload: Record<string, unknown>;
};

/**
 * Runs a change of `actor` in one transaction together with its activity
 * event: both are written, or neither. The event is in the actor's unit.
 */
export async function changeWithActivity<T>(
  db: Database,
  actor: { id: string; federativeUnit: string },
  change: (tx: Executor) => Promise<RecordedChange<T>>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const { result, type, payload } = await change(tx);
    await insertActivity(tx, {
      type,
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload,
    });
    return result;
  });
}
