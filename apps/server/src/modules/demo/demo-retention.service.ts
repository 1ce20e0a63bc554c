/**
 * Retention of the demonstration data (LGPD Art. 15 and 16): a demonstration
 * candidate's personal data (name, CPF, birth date, phone, e-mail, consent,
 * the scores of their last verification) serves the demonstration only, so
 * it is kept DEMO_RETENTION_DAYS after the candidate's last change and then
 * purged with everything the demonstration stored about them: their face
 * enrolment (template and captures), verification records and challenges,
 * as the manual wipe does; the CPF in the activity events that named them is
 * replaced by the keyed pseudonym, as the unit-level retention does. A CPF
 * that is also a user of DEMO keeps the user's own enrolment and events.
 *
 * Runs in the daily retention job (jobs/scheduled-jobs.ts); a purge that
 * removed anything is recorded in the activity log (`retention_purge`).
 */
import { DEMO_UNIT } from '@exame/shared';
import type { Database } from '../../db/client';
import type { FileStorage } from '../../lib/file-storage';
import type { Pseudonymizer } from '../../lib/pseudonym';
import { insertActivity } from '../activity/activity.service';
import { replaceEventCpf } from '../retention/retention.service';
import { deleteDemoData, findEventsNamingCpfs } from './demo.repository';

const DAY_MS = 86_400_000;

export type DemoRetentionDeps = {
  db: Database;
  files: Pick<FileStorage, 'remove'>;
  pseudonym: Pseudonymizer;
};

export type DemoPurgeCounts = {
  candidates: number;
  enrolments: number;
  verifications: number;
  events: number;
};

/** Purges the demonstration candidates not changed in the last `retentionDays` days. */
export async function purgeExpiredDemoData(
  deps: DemoRetentionDeps,
  retentionDays: number,
  now: Date = new Date(),
): Promise<DemoPurgeCounts> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const { counts, fileKeys } = await deps.db.transaction(async (tx) => {
    const deleted = await deleteDemoData(tx, DEMO_UNIT, { changedBefore: cutoff });
    const events = await findEventsNamingCpfs(tx, DEMO_UNIT, deleted.cpfs);
    for (const event of events) await replaceEventCpf(tx, event.id, deps.pseudonym(event.cpf));
    const purged: DemoPurgeCounts = {
      candidates: deleted.candidates,
      enrolments: deleted.enrolments,
      verifications: deleted.verifications,
      events: events.length,
    };
    if (purged.candidates > 0) {
      await insertActivity(tx, {
        type: 'retention_purge',
        actorId: null,
        federativeUnit: DEMO_UNIT,
        payload: {
          demoCandidates: purged.candidates,
          enrolments: purged.enrolments,
          verifications: purged.verifications,
          events: purged.events,
          retentionDays,
        },
      });
    }
    return { counts: purged, fileKeys: deleted.fileKeys };
  });
  // Files go after the commit: a rolled-back purge must not lose a file still referenced.
  for (const key of fileKeys) await deps.files.remove(key);
  return counts;
}
