/**
 * A year of a unit's activity log and check-in records, written by SQL in
 * bulk: the volume the activity and check-in searches are planned and
 * measured at (test/search-plans.test.ts, and the growth table of
 * `bench:day`). The unit's people come first (actors of the log, openers and
 * examiners of the records), then the events and the records, newest first by
 * their number, spread evenly over the year before `now`.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../src/db/client';

/** People of each unit, at least: users who act in the log and examine in the records. */
export const PEOPLE = 300;
/** Events per statement: the chain's trigger moves its head once per row. */
const SLICE = 1_000;

/**
 * The unit's people numbered `first` to `first + count - 1` (PEOPLE from 1 by
 * default); in DEMO the first of all is `accentedActor` when given.
 */
export async function seedPeople(
  db: Executor,
  unit: string,
  options: { accentedActor?: string; first?: number; count?: number } = {},
) {
  const first = options.first ?? 1;
  const last = first + (options.count ?? PEOPLE) - 1;
  const accented = options.accentedActor ?? null;
  await db.execute(sql`insert into users (name, email, cpf, federative_unit, role)
    select case when ${unit} = 'DEMO' and i = 1 and ${accented}::text is not null
                then ${accented}::text
                else (array['Bruno','Carla','Diego','João','Larissa','Otávio','Natália','Rafael'])[1 + i % 8]
                  || ' ' || (array['Souza','Lima','Araújo','Pereira','Gonçalves','Ribeiro'])[1 + i % 6]
                  || ' ' || i end,
           lower(${unit}) || '.pessoa' || i || '@exemplo.gov.br',
           lpad((hashtext(${unit}) & 65535)::text, 5, '0') || lpad(i::text, 6, '0'),
           ${unit}, case when i % 5 = 0 then 'ADMIN' else 'VIEWER' end
    from generate_series(${first}::int, ${last}::int) i`);
}

/**
 * `events` events of the unit, numbered from 1 (the server's, the
 * browser's page views with their own chain, views of biometric data about
 * people by pseudonym), each `spacingSeconds` before the next. The chain's
 * trigger writes every row's place and hash, as it does for the app.
 */
export async function seedActivity(
  db: Executor,
  unit: string,
  options: { events: number; spacingSeconds: number },
) {
  for (let from = 1; from <= options.events; from += SLICE) {
    const to = Math.min(from + SLICE - 1, options.events);
    await db.execute(sql`with actors as (
      select array_agg(id order by email) ids from users where federative_unit = ${unit})
    insert into activity_log (type, actor_id, federative_unit, target, payload, client_id, created_at, occurred_at)
    select t.type, a.ids[1 + i % array_length(a.ids, 1)], ${unit},
           case when t.type = 'page_view' then '/exames'
                when t.type in ('face_image_view', 'photo_view', 'cpf_view') then 'cpf:pseudo-' || (i % 400)
                when t.type = 'user_role_change' then 'user:' || a.ids[1 + (i * 7) % array_length(a.ids, 1)]
                else 'exam:' || ${unit} || '-' || lpad((i % 9000)::text, 9, '0') end,
           case when t.type = 'page_view' then jsonb_build_object('path', '/exames', 'ms', i % 900)
                when t.type = 'user_role_change' then jsonb_build_object('userId', a.ids[1 + (i * 7) % array_length(a.ids, 1)], 'role', 'ADMIN')
                else jsonb_build_object('candidateName',
                  (array['Maria','José','Antônio','Francisca','Paulo','Luíza'])[1 + i % 6] || ' '
                    || (array['Silva','Santos','Oliveira','Ferreira','Alves','Rodrigues'])[1 + (i / 6) % 6],
                  'status', 'done') end,
           case when t.type = 'page_view' then gen_random_uuid() end,
           now() - (i * interval '1 second' * ${options.spacingSeconds}::float8),
           now() - (i * interval '1 second' * ${options.spacingSeconds}::float8)
    from generate_series(${from}::int, ${to}::int) i cross join actors a
    cross join lateral (select (array['page_view','page_view','page_view','page_view','load_exam',
      'send_result','load_audit','checkin_open','face_image_view','user_role_change','page_view',
      'load_exam','photo_view','send_result','page_view','cpf_view','load_exam','checkin_close',
      'page_view','exam_import'])[1 + i % 20] as type) t`);
  }
}

/**
 * `records` check-ins at the unit's posts, numbered from 1, each
 * `spacingSeconds` before the next; one in a hundred still open, one or two
 * examiners each (given to every record of the unit that has none yet).
 */
export async function seedCheckIns(
  db: Executor,
  unit: string,
  options: { records: number; spacingSeconds: number },
) {
  await db.execute(sql`with posts as (
      select array_agg(id order by identifier) ids, array_agg(identifier order by identifier) names
      from scheduling_locals where federative_unit = ${unit}),
    people as (select array_agg(id order by email) ids from users where federative_unit = ${unit})
    insert into check_ins (federative_unit, scheduling_local_id, scheduling_local, status,
      opened_by, opened_at, closed_at, face_validation_required)
    select ${unit}, p.ids[1 + i % array_length(p.ids, 1)], p.names[1 + i % array_length(p.ids, 1)],
           case when i % 100 = 0 then 'open' when i % 13 = 0 then 'force_closed' else 'closed' end,
           u.ids[1 + i % array_length(u.ids, 1)],
           now() - (i * interval '1 second' * ${options.spacingSeconds}::float8),
           case when i % 100 <> 0 then now() - (i * interval '1 second' * ${options.spacingSeconds}::float8) + interval '6 hours' end,
           true
    from generate_series(1, ${options.records}::int) i cross join posts p cross join people u`);
  await db.execute(sql`with people as (
      select array_agg(id order by email) ids, array_agg(name order by email) names,
             array_agg(cpf order by email) cpfs
      from users where federative_unit = ${unit})
    insert into check_in_viewers (check_in_id, federative_unit, user_id, name, cpf,
      check_in_date, active)
    select c.id, ${unit}, p.ids[k], p.names[k], p.cpfs[k],
           c.opened_at + (n - 1) * interval '1 minute', false
    from (select id, opened_at, row_number() over (order by opened_at) r
          from check_ins ci where federative_unit = ${unit}
            and not exists (select 1 from check_in_viewers v where v.check_in_id = ci.id)) c
    cross join generate_series(1, 2) n cross join people p
    cross join lateral (select (1 + (c.r * 7 + n * 131) % array_length(p.ids, 1))::int k) pick
    where n = 1 or c.r % 3 = 0`);
}
