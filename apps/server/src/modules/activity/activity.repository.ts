/** The activity log: who did what, written in the same transaction as the change it records. */
import type { Executor } from '../../db/client';
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
  | 'api_key_create'
  | 'api_key_revoke'
  | 'exam_import'
  | 'photo_view'
  | 'biometric_enrol'
  | 'biometric_template_upgrade'
  | 'face_image_view'
  | 'retention_purge'
  | 'load_audit'
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
