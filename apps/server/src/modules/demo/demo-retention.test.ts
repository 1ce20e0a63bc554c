/**
 * Retention of the demonstration candidates' personal data, on both database
 * tiers, through the daily retention job: a candidate not changed for longer
 * than DEMO_RETENTION_DAYS goes, with their face enrolment (template and
 * stored images), verification records and challenges, and the CPF in the
 * events that named them becomes the keyed pseudonym; a recent candidate,
 * and the enrolment of a DEMO user who was also a candidate, stay. The purge
 * is recorded in the activity log.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { RETENTION_JOB, scheduledJobs } from '../../jobs/scheduled-jobs';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { nextCpf, seedSignedIn, seedUser } from '../../../test/identity';
import { insertActivity } from '../activity/activity.repository';
import { upsertTemplate } from '../face-enrolment/face-enrolment.repository';

const DAY_MS = 86_400_000;

describe('retention of the demonstration data', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedSignedIn>>;

  beforeAll(async () => {
    t = await buildTestApp({ config: { demoRetentionDays: 30 } });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DEMO' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  /** A candidate as the demonstration leaves them: data, contact, consent, enrolment, a verification. */
  const demonstrate = async (cpf: string) => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/Demo/candidates',
      headers: admin.auth,
      payload: { name: 'Pessoa Demonstrada', cpf, birthDate: '1985-05-05' },
    });
    expect(registered.statusCode, registered.body).toBeLessThan(300);
    const keys = [await t.app.files.put(Buffer.from(`rosto de ${cpf}`))];
    await upsertTemplate(
      db(),
      {
        federativeUnit: 'DEMO',
        cpf,
        templateSealed: 'selado',
        descriptorVersion: 'teste',
        imageKeys: keys,
        enrolledBy: admin.user.id,
      },
      new Date(),
    );
    await db().execute(
      sql`insert into biometric_verifications (federative_unit, cpf, requested_by, match, threshold)
          values ('DEMO', ${cpf}, ${admin.user.id}, true, 0.5)`,
    );
    await db().execute(
      sql`insert into face_challenges (federative_unit, requested_by, cpf, purpose, steps, expires_at)
          values ('DEMO', ${admin.user.id}, ${cpf}, 'enrolment', '["left"]'::jsonb, now())`,
    );
    await db().execute(
      sql`update demo_candidates
             set email = 'pessoa@exemplo.com.br', phone = '(61) 98888-0000',
                 last_verification = '{"verified":true,"distance":0.31}'::jsonb
           where cpf = ${cpf}`,
    );
    await insertActivity(db(), {
      type: 'biometric_enrol',
      actorId: admin.user.id,
      federativeUnit: 'DEMO',
      payload: { cpf, captures: 1, subject: 'demo-candidate' },
    });
    return keys;
  };
  const age = (cpf: string, days: number) =>
    db().execute(
      sql`update demo_candidates set updated_at = ${new Date(Date.now() - days * DAY_MS)}
           where cpf = ${cpf}`,
    );
  const count = async (table: string, cpf: string) => {
    const [row] = await selectRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from ${sql.identifier(table)} where cpf = ${cpf}`,
    );
    return row?.n ?? 0;
  };
  const eventsNaming = (cpf: string) =>
    selectRows<{ payload: Record<string, unknown> }>(
      db(),
      sql`select payload from activity_log
           where type = 'biometric_enrol' and (payload ->> 'cpf' = ${cpf}
              or payload ->> 'cpfPseudonym' = ${t.app.pseudonym(cpf)})`,
    );

  it('purges the candidates past DEMO_RETENTION_DAYS and what the demonstration stored about them', async () => {
    const old = nextCpf();
    const recent = nextCpf();
    const oldKeys = await demonstrate(old);
    const recentKeys = await demonstrate(recent);
    // A DEMO user who was also demonstrated: the candidate row goes, the user's enrolment stays.
    const user = await seedUser(t.app, { role: 'VIEWER', unit: 'DEMO' });
    const userKeys = await demonstrate(user.cpf);
    await age(old, 31);
    await age(user.cpf, 31);
    await age(recent, 29);

    const job = scheduledJobs(t.app, { retentionAtStart: false }).find(
      (definition) => definition.name === RETENTION_JOB,
    );
    await job!.run();

    // The old candidate: row (name, CPF, birth date, contact, scores), enrolment, images, records.
    for (const table of ['demo_candidates', 'biometric_templates', 'biometric_verifications']) {
      expect(await count(table, old), table).toBe(0);
    }
    expect(await count('face_challenges', old)).toBe(0);
    for (const key of oldKeys) await expect(t.app.files.read(key)).rejects.toThrow();
    expect(await eventsNaming(old)).toEqual([
      {
        payload: {
          cpfPseudonym: t.app.pseudonym(old),
          captures: 1,
          subject: 'demo-candidate',
        },
      },
    ]);

    // The recent candidate stays whole.
    for (const table of ['demo_candidates', 'biometric_templates', 'biometric_verifications']) {
      expect(await count(table, recent), table).toBe(1);
    }
    for (const key of recentKeys) await expect(t.app.files.read(key)).resolves.toBeTruthy();
    expect((await eventsNaming(recent))[0]?.payload.cpf).toBe(recent);

    // The user: no longer a candidate, but their enrolment and events are theirs.
    expect(await count('demo_candidates', user.cpf)).toBe(0);
    expect(await count('biometric_templates', user.cpf)).toBe(1);
    for (const key of userKeys) await expect(t.app.files.read(key)).resolves.toBeTruthy();
    expect((await eventsNaming(user.cpf))[0]?.payload.cpf).toBe(user.cpf);

    const purges = await selectRows<{ payload: Record<string, unknown> }>(
      db(),
      sql`select payload from activity_log
           where type = 'retention_purge' and federative_unit = 'DEMO' and payload ? 'demoCandidates'`,
    );
    expect(purges).toEqual([
      {
        payload: {
          demoCandidates: 2,
          enrolments: 1,
          verifications: 1,
          events: 1,
          retentionDays: 30,
        },
      },
    ]);

    // A second run finds nothing more to purge and records nothing.
    await job!.run();
    expect(await count('demo_candidates', recent)).toBe(1);
    const [again] = await selectRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from activity_log
           where type = 'retention_purge' and payload ? 'demoCandidates'`,
    );
    expect(again?.n).toBe(1);
  });
});
