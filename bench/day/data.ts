/**
 * The data of a busy unit for `bench:day`, written the same way into every
 * variant's database after its server has migrated and seeded it: 20 posts,
 * a year of exams (by default 100 000) spread over them, an occurrence for
 * one exam in four that started, the simulated users (examiners, auditors,
 * administrators) with one password, and the coming exams the delivery system
 * starts and finishes during the run. The SQL is the seed's own (db/seed/demo-exams.ts)
 * plus a few statements here; the statistics are refreshed at the end.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/src/db/client';
import { selectRows } from '../../apps/server/src/db/select-rows';
import { seedDemoExams } from '../../apps/server/src/db/seed/demo-exams';
import { cpfFromBase } from '../../apps/server/src/db/seed/first-start';
import type { DatabasePlace } from './servers';

export const UNIT = 'DEMO';
export const POSTS = Array.from(
  { length: 20 },
  (_, index) => `${UNIT}.POSTO${String(index + 1).padStart(2, '0')}`,
);
const DAY = 86_400_000;

export type SimulatedUser = {
  role: 'examiner' | 'auditor' | 'admin';
  email: string;
  cpf: string;
  post: string;
};

/** The users of the largest level: three examiners for each auditor and each admin. */
export function simulatedUsers(count: number): SimulatedUser[] {
  return Array.from({ length: count }, (_, index) => {
    const role = index % 5 < 3 ? 'examiner' : index % 5 === 3 ? 'auditor' : 'admin';
    return {
      role,
      email: `dia-${role}-${index}@bench.exame.local`,
      cpf: cpfFromBase(String(400_000_000 + index * 7)),
      // Examiners work at the posts without rooms (09 to 20), a few per post.
      post: POSTS[8 + (index % 12)] ?? POSTS[0]!,
    };
  });
}

const ROLE_OF = { examiner: 'VIEWER', auditor: 'auditor', admin: 'ADMIN' } as const;

export async function seedBusyUnit(
  place: DatabasePlace,
  options: { exams: number; users: SimulatedUser[]; passwordHash: string },
): Promise<{ todayExams: string[] }> {
  const database = await openDatabase(
    place.kind === 'pglite'
      ? { kind: 'pglite', dataDir: path.join(place.dataDir, 'pgdata') }
      : { kind: 'postgres', url: place.url, poolSize: 2 },
  );
  const { db } = database;
  try {
    for (const post of POSTS.slice(8)) {
      await db.execute(sql`insert into scheduling_locals (federative_unit, identifier, description, address)
        values (${UNIT}, ${post}, ${`Posto ${post.slice(-2)}`}, 'Rua do Benchmark, 1')
        on conflict do nothing`);
    }
    const now = Date.now();
    for (let done = 0; done < options.exams; done += 50_000) {
      await seedDemoExams(db, {
        unit: UNIT,
        exams: Math.min(50_000, options.exams - done),
        offset: 10_000_000 + done,
        from: new Date(now - 330 * DAY),
        to: new Date(now + 35 * DAY),
        seed: 0.17,
      });
    }
    // The seed knows 8 posts: three in five of the exams move to the other 12.
    await db.execute(sql`update exams
      set scheduling_local = ${`${UNIT}.POSTO`} || lpad((9 + abs(hashtext(id::text)) % 12)::text, 2, '0') || '-S1'
      where federative_unit = ${UNIT} and scheduling_id >= ${`${UNIT}-010000000`}
        and abs(hashtext(scheduling_id)) % 5 < 3`);
    await db.execute(sql`insert into occurrences (exam_id, external_id, type, description, occurred_at)
      select id, 'dia-' || id::text, 'ruido', 'Ruído no ambiente detectado.',
             coalesce(started_at, scheduling_date) + interval '12 minutes'
      from exams where federative_unit = ${UNIT} and status in ('done', 'started')
        and abs(hashtext(id::text)) % 4 = 0
      on conflict do nothing`);
    for (const user of options.users) {
      await db.execute(sql`insert into users (name, email, cpf, federative_unit, role, password_hash)
        values (${`Pessoa ${user.email.split('@')[0]}`}, ${user.email}, ${user.cpf}, ${UNIT},
                ${ROLE_OF[user.role]}, ${options.passwordHash})
        on conflict do nothing`);
    }
    const today = await selectRows<{ scheduling_id: string }>(
      db,
      sql`select scheduling_id from exams where federative_unit = ${UNIT} and status = 'scheduled'
        and scheduling_date < now() + interval '3 days'
        order by scheduling_date, scheduling_id limit 3000`,
    );
    // As autovacuum would have left a table of a year's exams: statistics
    // and the visibility map (index-only counts), not a vacuum during the load.
    await db.execute(sql`vacuum analyze`);
    return { todayExams: today.map((row) => row.scheduling_id) };
  } finally {
    await database.close();
  }
}
