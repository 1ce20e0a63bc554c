/**
 * Demo data for the DEMO unit: service posts and realistic exams over a date
 * range (past days mostly finished with results, today in progress, future
 * days scheduled), with status history and occurrences. Exams are generated
 * in SQL (`generate_series`) so that a million rows take seconds, not hours;
 * `setseed` makes a run repeatable.
 *
 * Conventions shared with the report: a local's identifier is written as the
 * delivery system sends it (`DEMO.POSTO01`), and an exam's scheduling local
 * carries a room suffix after a dash (`DEMO.POSTO01-S2`).
 *
 * Seed scripts generate data and write their SQL here directly: they are the
 * one exception, with db/, to the rule that SQL lives in *.repository.ts files
 * (checked by .dependency-cruiser.cjs, sql-only-in-repositories).
 */
import { createHash } from 'node:crypto';
import { dayInZone, zonedDayStart } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { type Database } from '../client';
import { selectRows } from '../select-rows';
import { schedulingLocals } from '../schema/index';
import { seedDemoAuditQueue } from './demo-audits';

export const DEMO_LOCALS: ReadonlyArray<{
  identifier: string;
  description: string;
  address: string;
}> = [
  { identifier: 'DEMO.POSTO01', description: 'Posto Centro', address: 'Av. Central, 100 — Centro' },
  {
    identifier: 'DEMO.POSTO02',
    description: 'Posto Rodoviária',
    address: 'Terminal Rodoviário, loja 12',
  },
  {
    identifier: 'DEMO.POSTO03',
    description: 'Posto Shopping Norte',
    address: 'Shopping Norte, piso L2',
  },
  {
    identifier: 'DEMO.POSTO04',
    description: 'Posto Vila Nova',
    address: 'Rua das Palmeiras, 45 — Vila Nova',
  },
  {
    identifier: 'DEMO.POSTO05',
    description: 'Posto Universitário',
    address: 'Campus Universitário, bloco C',
  },
  {
    identifier: 'DEMO.POSTO06',
    description: 'Posto Aeroporto',
    address: 'Aeroporto, saguão de embarque',
  },
  {
    identifier: 'DEMO.POSTO07',
    description: 'Posto Jardim América',
    address: 'Rua Brasil, 890 — Jardim América',
  },
  {
    identifier: 'DEMO.POSTO08',
    description: 'Posto Industrial',
    address: 'Av. das Indústrias, 2000',
  },
];

export type DemoSeedOptions = {
  exams: number;
  from: Date;
  to: Date;
  unit?: string;
  /** Between -1 and 1; the same seed gives the same data. */
  seed?: number;
  /** Index `n` of the first exam, so repeated runs append instead of colliding. */
  offset?: number;
};

export async function seedDemoLocals(db: Database, unit = 'DEMO'): Promise<void> {
  await db
    .insert(schedulingLocals)
    .values(
      DEMO_LOCALS.map((local) => ({
        ...local,
        identifier: local.identifier.replace(/^DEMO\./, `${unit}.`),
        federativeUnit: unit,
      })),
    )
    .onConflictDoNothing();
}

const FIRST_NAMES = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Eduarda',
  'Felipe',
  'Gabriela',
  'Henrique',
  'Isabela',
  'João',
  'Larissa',
  'Marcos',
  'Natália',
  'Otávio',
  'Patrícia',
  'Rafael',
  'Sabrina',
  'Tiago',
  'Vanessa',
  'William',
];
const LAST_NAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
];

function sqlTextArray(values: readonly string[]) {
  return sql.raw(
    `ARRAY[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(',')}]::text[]`,
  );
}

/** How many exams the unit already has (the demo seed numbers new ones after them). */
export async function countDemoExams(db: Database, unit: string): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from exams where federative_unit = ${unit}`,
  );
  return row?.n ?? 0;
}

/** Inserts `exams` exams; returns how many rows were written. */
export async function seedDemoExams(db: Database, options: DemoSeedOptions): Promise<number> {
  const unit = options.unit ?? 'DEMO';
  const offset = options.offset ?? 0;
  const locals = DEMO_LOCALS.map((local) => local.identifier.replace(/^DEMO\./, `${unit}.`));
  await db.execute(sql`select setseed(${options.seed ?? 0.42})`);
  const now = new Date();
  // Days before today: finished or absent or cancelled; today: in progress; after: scheduled.
  const result = await db.execute(sql`
    with params as (
      select ${options.from.toISOString()}::timestamptz as start_at,
             ${options.to.toISOString()}::timestamptz as end_at,
             ${now.toISOString()}::timestamptz as now_at
    ),
    base as (
      select n,
             -- Office hours in Brasília (UTC-3): 08:00 to 18:00.
             date_trunc('day', p.start_at + (random() * extract(epoch from (p.end_at - p.start_at))) * interval '1 second')
               + interval '11 hours' + floor(random() * 600) * interval '1 minute' as scheduling_date,
             random() as r_status,
             random() as r_result,
             random() as r_meta,
             p.now_at
      from generate_series(${offset + 1}::int, ${offset + options.exams}::int) as n, params p
    ),
    shaped as (
      select n, scheduling_date, r_result, r_meta,
             case
               when scheduling_date > now_at + interval '2 hours' then (case when r_status < 0.03 then 'cancelled' else 'scheduled' end)
               when scheduling_date > now_at then (case when r_status < 0.5 then 'started' else 'scheduled' end)
               when r_status < 0.03 then 'cancelled'
               when r_status < 0.11 then 'absence'
               when scheduling_date > now_at - interval '1 hour' then 'started'
               else 'done'
             end as status
      from base
    )
    insert into exams (
      federative_unit, scheduling_id, candidate_name, candidate_cpf, candidate_renach, scheduling_date,
      status, result, score, scheduling_local, pending_audit, absence, interrupted, room, station,
      started_at, finished_at
    )
    select ${unit},
           ${unit} || '-' || lpad(n::text, 9, '0'),
           (${sqlTextArray(FIRST_NAMES)})[1 + (n * 7) % ${FIRST_NAMES.length}] || ' ' ||
             (${sqlTextArray(LAST_NAMES)})[1 + (n * 13) % ${LAST_NAMES.length}] || ' ' ||
             (${sqlTextArray(LAST_NAMES)})[1 + (n * 31) % ${LAST_NAMES.length}],
           lpad(((n::bigint * 7919) % 99999999999)::text, 11, '0'),
           lpad(((n::bigint * 104729) % 99999999999)::text, 11, '0'),
           scheduling_date,
           status,
           case when status <> 'done' then null
                when r_result < 0.10 then 'in_analysis'
                when r_result < 0.13 then 'disqualified'
                when r_result < 0.40 then 'reproved'
                else 'approved' end,
           -- The score (0-100) from the right answers of 30 questions, in line with the
           -- result: approved from 21 right (70, the pass mark), reproved below it.
           case when status <> 'done' then null
                else round((case when r_result < 0.10 then 15 + floor(r_meta * 16)
                                 when r_result < 0.13 then 12 + floor(r_meta * 19)
                                 when r_result < 0.40 then 10 + floor(r_meta * 11)
                                 else 21 + floor(r_meta * 10) end)::numeric * 100 / 30, 2) end,
           (${sqlTextArray(locals)})[1 + (n % ${locals.length})] || '-S' || (1 + (n % 3))::text,
           case when status = 'done' and r_result < 0.10 then 1 else 0 end,
           case when status = 'absence' then 1 else 0 end,
           case when status in ('done', 'started') and r_meta < 0.04 then 1 else 0 end,
           'Sala ' || (1 + (n % 3))::text,
           'Estação ' || lpad((1 + (n % 20))::text, 2, '0'),
           case when status in ('started', 'done') then scheduling_date + interval '5 minutes' else null end,
           case when status = 'done' then scheduling_date + interval '45 minutes' else null end
    from shaped
    on conflict (federative_unit, scheduling_id) do nothing
  `);
  const written = result as unknown as { affectedRows?: number; rowCount?: number | null };
  return written.affectedRows ?? written.rowCount ?? 0;
}

/** History (scheduled -> ... -> current) and a few occurrences for exams of the unit that have none. */
export async function seedDemoHistory(db: Database, unit = 'DEMO'): Promise<void> {
  await db.execute(sql`
    insert into exam_status_history (exam_id, from_status, to_status, source, at)
    select id, null, 'scheduled', 'seed', scheduling_date - interval '3 days' from exams e
    where federative_unit = ${unit} and not exists (select 1 from exam_status_history h where h.exam_id = e.id)
  `);
  await db.execute(sql`
    insert into exam_status_history (exam_id, from_status, to_status, source, at)
    select id, 'scheduled', case when status = 'done' then 'started' else status end, 'seed', coalesce(started_at, scheduling_date)
    from exams e
    where federative_unit = ${unit} and status <> 'scheduled'
      and not exists (select 1 from exam_status_history h where h.exam_id = e.id and h.from_status is not null)
  `);
  await db.execute(sql`
    insert into exam_status_history (exam_id, from_status, to_status, to_result, source, at)
    select id, 'started', 'done', result, 'seed', finished_at from exams e
    where federative_unit = ${unit} and status = 'done'
      and not exists (select 1 from exam_status_history h where h.exam_id = e.id and h.to_status = 'done')
  `);
  await db.execute(sql`
    insert into occurrences (exam_id, external_id, type, description, occurred_at)
    select id, 'seed-' || id::text,
           (array['ruido', 'movimento', 'rosto_ausente', 'terceiro'])[1 + (abs(hashtext(id::text)) % 4)],
           (array['Ruído no ambiente detectado.', 'Candidato desviou o olhar da tela repetidamente.', 'Rosto do candidato fora do enquadramento.', 'Outra pessoa apareceu na imagem.'])[1 + (abs(hashtext(id::text)) % 4)],
           coalesce(started_at, scheduling_date) + interval '12 minutes'
    from exams e
    where federative_unit = ${unit} and status in ('done', 'started') and (interrupted > 0 or result in ('disqualified', 'in_analysis'))
    on conflict do nothing
  `);
}

/** Exams of today added to every demo post at start-up. */
export const DEMO_TODAY_PER_POST = 6;

/** Whether the unit has exams already. */
async function hasExams(db: Database, unit: string): Promise<boolean> {
  const found = await db.execute(sql`select 1 from exams where federative_unit = ${unit} limit 1`);
  return (found as unknown as { rows: unknown[] }).rows.length > 0;
}

/**
 * Start-up seed of the embedded default: a small demo data set for each unit
 * that has no exams yet: DEMO (the dashboard, the reports and the audit
 * queue, see demo-audits.ts) and DF, where the demo examiners try the
 * check-in with face validation at the DF posts.
 */
export async function seedDemoOnEmpty(
  db: Database,
  files: { put: (content: Buffer) => Promise<string> },
): Promise<void> {
  const day = 86_400_000;
  for (const [unit, exams, photos] of [
    ['DEMO', 1200, 20],
    ['DF', 300, 0],
  ] as const) {
    if (await hasExams(db, unit)) continue;
    await seedDemoLocals(db, unit);
    await seedDemoExams(db, {
      unit,
      exams,
      from: new Date(Date.now() - 30 * day),
      to: new Date(Date.now() + 7 * day),
    });
    // Today (São Paulo) always has exams at every post, whatever the random
    // spread above gave it: the examiner who checks in finds the day's exams.
    const today = zonedDayStart(dayInZone(new Date()));
    await seedDemoExams(db, {
      unit,
      exams: DEMO_LOCALS.length * DEMO_TODAY_PER_POST,
      offset: exams,
      seed: 0.17,
      // date_trunc('day') of the seed is a UTC day: today's São Paulo day
      // starts at 03:00 UTC of the same date, so the range stays in that date.
      from: today,
      to: new Date(today.getTime() + 20 * 3_600_000),
    });
    await seedDemoHistory(db, unit);
    await seedDemoRooms(db, unit);
    if (photos > 0) await seedDemoPhotos(db, files, photos);
    // The demo auditors find exams to judge, with reference photo and captures.
    // A first page of the audit queue (20) with reference photos and captures.
    if (unit === 'DEMO') await seedDemoAuditQueue(db, files, { unit, count: 20 });
  }
}

/**
 * The rooms of the demo posts as the demo exams name them: `S1` to `S3`
 * (`Sala 1` to `Sala 3`) with 20 stations each (`Estação 01` to `Estação 20`).
 */
export async function seedDemoRooms(db: Database, unit = 'DEMO'): Promise<void> {
  await db.execute(sql`
    insert into exam_rooms (federative_unit, scheduling_local_id, code, name)
    select l.federative_unit, l.id, 'S' || r::text, 'Sala ' || r::text
    from scheduling_locals l cross join generate_series(1, 3) r
    where l.federative_unit = ${unit}
    on conflict do nothing
  `);
  await db.execute(sql`
    insert into exam_stations (exam_room_id, federative_unit, code, position)
    select room.id, room.federative_unit, 'Estação ' || lpad(p::text, 2, '0'), p
    from exam_rooms room cross join generate_series(1, 20) p
    where room.federative_unit = ${unit}
    on conflict do nothing
  `);
}

/**
 * Exam photos for some finished exams of the unit that have none: synthetic
 * pictures (no real person), stored encrypted like any other photo.
 */
export async function seedDemoPhotos(
  db: Database,
  files: { put: (content: Buffer) => Promise<string> },
  count: number,
  unit = 'DEMO',
): Promise<number> {
  const targets = (
    (await db.execute(sql`
      select e.id, coalesce(e.started_at, e.scheduling_date) as started_at from exams e
      where e.federative_unit = ${unit} and e.status = 'done'
        and not exists (select 1 from exam_photos p where p.exam_id = e.id)
      order by e.scheduling_date desc limit ${count}
    `)) as unknown as { rows: Array<{ id: string; started_at: string | Date }> }
  ).rows;
  const { default: sharp } = await import('sharp');
  let written = 0;
  for (const [index, target] of targets.entries()) {
    for (let shot = 0; shot < 2; shot += 1) {
      const hue = (index * 47 + shot * 90) % 360;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
        <rect width="640" height="400" fill="hsl(${hue},25%,82%)"/>
        <rect x="0" y="300" width="640" height="100" fill="hsl(${hue},20%,60%)"/>
        <circle cx="320" cy="170" r="70" fill="hsl(30,35%,62%)"/>
        <rect x="230" y="240" width="180" height="160" rx="60" fill="hsl(${(hue + 180) % 360},30%,45%)"/>
        <text x="20" y="380" font-size="18" font-family="sans-serif" fill="#222">Estação ${String((index % 20) + 1).padStart(2, '0')} · captura ${shot + 1}</text>
      </svg>`;
      const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
      const storageKey = await files.put(jpeg);
      const capturedAt = new Date(
        new Date(target.started_at).getTime() + (10 + shot * 15) * 60_000,
      );
      await db.execute(sql`
        insert into exam_photos (exam_id, captured_at, storage_key, content_type, width, height, bytes, sha256)
        values (${target.id}, ${capturedAt.toISOString()}, ${storageKey}, 'image/jpeg', 640, 400, ${jpeg.length},
                ${createHash('sha256').update(jpeg).digest('hex')})
      `);
      written += 1;
    }
  }
  return written;
}
