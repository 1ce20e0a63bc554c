/**
 * The activity search and the check-in search at volume: every filter the
 * two screens offer reads `activity_log`, `check_ins` and `check_in_viewers`
 * through an index that matches it (no sequential scan), on both engines,
 * once the tables hold a year of several units and the planner's statistics
 * are fresh. The statements are the repositories' own (captured while they
 * run), and the answers are checked too: the text searches ignore case and
 * accents, the activity total stops at the cap.
 */
import { cappedTotal, TOTAL_COUNT_CAP } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../src/db/select-rows';
import { seedDemoExams, seedDemoLocals } from '../src/db/seed/demo-exams';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import {
  countActivity,
  findActivityPage,
  findActivitySlice,
  type ActivitySearch,
} from '../src/modules/activity/activity.repository';
import { searchCheckIns, type CheckInSearch } from '../src/modules/check-ins/check-ins.repository';
import { createPlanDatabase, indexesRead, sequentialScans, type PlanDatabase } from './plans';

const DAY = 86_400_000;
const BIG_TABLES = ['exams', 'occurrences', 'activity_log', 'check_ins', 'check_in_viewers'];
const UNITS: Array<[unit: string, events: number, checkIns: number]> = [
  ['DEMO', 14_000, 6_000],
  ['SP', 8_000, 6_000],
  ['DF', 6_000, 4_000],
  ['CE', 4_000, 4_000],
];
/** The person found by CPF in the activity search (their pseudonym is made up here). */
const PERSON = { digits: '52998224725', target: 'cpf:pseudo-52998224725' };
const ACCENTED_ACTOR = 'Anaïs Conceição Lima';
const SLICE = 1_000;
const PEOPLE = 300;

describe('the activity and check-in searches read through indexes at volume', () => {
  let database: PlanDatabase;
  const now = new Date();
  const month = { start: new Date(now.getTime() - 30 * DAY), endExclusive: now };
  let actorId = '';

  beforeAll(async () => {
    database = await createPlanDatabase();
    const db = database.db;
    await ensureReferenceData(db);
    for (const [unit, events, records] of UNITS) {
      await seedDemoLocals(db, unit);
      // The unit's people: actors of the log, openers and examiners of the records.
      await db.execute(sql`insert into users (name, email, cpf, federative_unit, role)
        select case when ${unit} = 'DEMO' and i = 1 then ${ACCENTED_ACTOR}
                    else (array['Bruno','Carla','Diego','João','Larissa','Otávio','Natália','Rafael'])[1 + i % 8]
                      || ' ' || (array['Souza','Lima','Araújo','Pereira','Gonçalves','Ribeiro'])[1 + i % 6]
                      || ' ' || i end,
               lower(${unit}) || '.pessoa' || i || '@exemplo.gov.br',
               lpad((hashtext(${unit}) & 65535)::text, 5, '0') || lpad(i::text, 6, '0'),
               ${unit}, case when i % 5 = 0 then 'ADMIN' else 'VIEWER' end
        from generate_series(1, ${PEOPLE}::int) i`);
      // Exams (the CPF's alternatives look for the person's exams too).
      await seedDemoExams(db, {
        unit,
        exams: 2_000,
        offset: UNITS.findIndex(([name]) => name === unit) * 2_000,
        from: new Date(now.getTime() - 330 * DAY),
        to: new Date(now.getTime() + 35 * DAY),
      });
      // A year of events, newest first by i: the server's, the browser's (their own
      // chain), views of biometric data about people by pseudonym. The chain's
      // trigger writes every row's place and hash, as it does for the app; in
      // slices, since each row moves its chain's head (one statement holds every
      // version of the head it wrote).
      for (let from = 1; from <= events; from += SLICE) {
        const to = Math.min(from + SLICE - 1, events);
        await db.execute(sql`with actors as (
          select array_agg(id order by email) ids from users where federative_unit = ${unit})
        insert into activity_log (type, actor_id, federative_unit, target, payload, client_id, created_at, occurred_at)
        select t.type, a.ids[1 + i % ${PEOPLE}::int], ${unit},
               case when t.type = 'page_view' then '/exames'
                    when t.type in ('face_image_view', 'photo_view', 'cpf_view') then 'cpf:pseudo-' || (i % 400)
                    when t.type = 'user_role_change' then 'user:' || a.ids[1 + (i * 7) % ${PEOPLE}::int]
                    else 'exam:' || ${unit} || '-' || lpad((i % 9000)::text, 9, '0') end,
               case when t.type = 'page_view' then jsonb_build_object('path', '/exames', 'ms', i % 900)
                    when t.type = 'user_role_change' then jsonb_build_object('userId', a.ids[1 + (i * 7) % ${PEOPLE}::int], 'role', 'ADMIN')
                    else jsonb_build_object('candidateName',
                      (array['Maria','José','Antônio','Francisca','Paulo','Luíza'])[1 + i % 6] || ' '
                        || (array['Silva','Santos','Oliveira','Ferreira','Alves','Rodrigues'])[1 + (i / 6) % 6],
                      'status', 'done') end,
               case when t.type = 'page_view' then gen_random_uuid() end,
               now() - (i * interval '1 second' * (365 * 86400 / ${events})),
               now() - (i * interval '1 second' * (365 * 86400 / ${events}))
        from generate_series(${from}::int, ${to}::int) i cross join actors a
        cross join lateral (select (array['page_view','page_view','page_view','page_view','load_exam',
          'send_result','load_audit','checkin_open','face_image_view','user_role_change','page_view',
          'load_exam','photo_view','send_result','page_view','cpf_view','load_exam','checkin_close',
          'page_view','exam_import'])[1 + i % 20] as type) t`);
      }
      // A year of check-ins at the unit's posts, one in a hundred still open, one
      // or two examiners each.
      await db.execute(sql`with posts as (
          select array_agg(id order by identifier) ids, array_agg(identifier order by identifier) names
          from scheduling_locals where federative_unit = ${unit}),
        people as (select array_agg(id order by email) ids from users where federative_unit = ${unit})
        insert into check_ins (federative_unit, scheduling_local_id, scheduling_local, status,
          opened_by, opened_at, closed_at, face_validation_required)
        select ${unit}, p.ids[1 + i % array_length(p.ids, 1)], p.names[1 + i % array_length(p.ids, 1)],
               case when i % 100 = 0 then 'open' when i % 13 = 0 then 'force_closed' else 'closed' end,
               u.ids[1 + i % ${PEOPLE}::int],
               now() - (i * interval '1 second' * (365 * 86400 / ${records})),
               case when i % 100 <> 0 then now() - (i * interval '1 second' * (365 * 86400 / ${records})) + interval '6 hours' end,
               true
        from generate_series(1, ${records}) i cross join posts p cross join people u`);
      await db.execute(sql`with people as (
          select array_agg(id order by email) ids, array_agg(name order by email) names,
                 array_agg(cpf order by email) cpfs
          from users where federative_unit = ${unit})
        insert into check_in_viewers (check_in_id, federative_unit, user_id, name, cpf,
          check_in_date, active)
        select c.id, ${unit}, p.ids[k], p.names[k], p.cpfs[k],
               c.opened_at + (n - 1) * interval '1 minute', false
        from (select id, opened_at, row_number() over (order by opened_at) r
              from check_ins where federative_unit = ${unit}) c
        cross join generate_series(1, 2) n cross join people p
        cross join lateral (select (1 + (c.r * 7 + n * 131) % ${PEOPLE}::int)::int k) pick
        where n = 1 or c.r % 3 = 0`);
    }
    // The person by CPF: a user account in DEMO, and events naming them.
    await db.execute(sql`insert into users (name, email, cpf, federative_unit, role)
      values ('Pessoa Buscada', 'pessoa.buscada@exemplo.gov.br', ${PERSON.digits}, 'DEMO', 'VIEWER')`);
    await db.execute(sql`insert into activity_log (type, actor_id, federative_unit, target, payload)
      select 'face_image_view', (select id from users where email = 'demo.pessoa5@exemplo.gov.br'),
             'DEMO', ${PERSON.target}, '{}'::jsonb
      union all
      select 'user_role_change', (select id from users where email = 'demo.pessoa5@exemplo.gov.br'),
             'DEMO', 'user:' || (select id from users where cpf = ${PERSON.digits}),
             jsonb_build_object('userId', (select id from users where cpf = ${PERSON.digits}), 'role', 'ADMIN')
      union all
      select 'load_exam', null, 'DEMO', 'exam:DEMO-ESPECIAL',
             jsonb_build_object('candidateName', 'Conceicao Araujo')`);
    const [actor] = await selectRows<{ id: string }>(
      db,
      sql`select id from users where name = ${ACCENTED_ACTOR}`,
    );
    actorId = actor!.id;
    // Statistics and the visibility map, as autovacuum keeps them in production.
    await db.execute(sql`vacuum analyze`);
  }, 240_000);
  afterAll(() => database.drop());

  const unit = 'DEMO';
  const biometric = ['face_image_view', 'photo_view', 'cpf_view'];
  const activityCases: Array<[string, Omit<ActivitySearch, 'unit'>, string]> = [
    ['every event', {}, 'activity_log_unit_newest_idx'],
    ['the last 30 days', { ...month }, 'activity_log_unit_newest_idx'],
    ['one type', { types: ['checkin_close'] }, 'activity_log_unit_type_newest_idx'],
    [
      'the biometric accesses in the period',
      { types: biometric, ...month },
      'activity_log_unit_type_newest_idx',
    ],
    ['an actor by id', { actorId: '' }, 'activity_log_unit_actor_newest_idx'],
    ['an actor by name', { actorText: 'anais conceicao' }, 'activity_log_unit_actor_newest_idx'],
    ['a target', { targetText: 'exam:demo-000000123' }, 'activity_log_unit_text_search_idx'],
    ['a text of the details', { targetText: 'conceição' }, 'activity_log_unit_text_search_idx'],
    [
      'the biometric accesses about a person by CPF',
      { types: biometric, targetText: '529.982.247-25', cpf: PERSON },
      // The unit's biometric views, or the person's events: whichever the planner finds fewer.
      'activity_log_unit_type_newest_idx|activity_log_cpf_pseudonym_idx',
    ],
    [
      'the events about a person by CPF',
      { targetText: '529.982.247-25', cpf: PERSON },
      'activity_log_user_ids_idx',
    ],
  ];

  const withActor = (filter: Omit<ActivitySearch, 'unit'>): ActivitySearch => ({
    unit,
    ...filter,
    ...(filter.actorId === '' ? { actorId } : {}),
  });

  it.each(activityCases)('the activity search: %s', async (_name, filter, index) => {
    const search = withActor(filter);
    const statements = await database.explain((db) =>
      Promise.all([
        findActivityPage(db, search, 50, 0),
        countActivity(db, search, TOTAL_COUNT_CAP + 1),
      ]),
    );
    expect(statements.length).toBe(2);
    expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
    const read = indexesRead(statements);
    expect(
      index.split('|').some((name) => read.includes(name)),
      read.join(),
    ).toBe(true);
  });

  it.each(activityCases.slice(0, 4))('the activity export: %s', async (_name, filter) => {
    const search = withActor(filter);
    const [first] = await findActivityPage(database.db, search, 1, 0);
    const statements = await database.explain((db) =>
      findActivitySlice(db, search, first!.id, 2000),
    );
    expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
  });

  it('the activity search ignores case and accents, by actor and by text', async () => {
    const ids = async (filter: Omit<ActivitySearch, 'unit'>) =>
      (await findActivityPage(database.db, { unit, ...filter }, 200, 0)).map((row) => row.id);
    const [byActor] = await selectRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from activity_log where actor_id = ${actorId}`,
    );
    const plain = await ids({ actorText: 'anais conceicao' });
    expect(plain.length).toBe(Math.min(byActor!.n, 200));
    expect(plain.length).toBeGreaterThan(0);
    expect(await ids({ actorText: 'ANAÏS CONCEIÇÃO' })).toEqual(plain);
    expect(await ids({ actorText: 'PESSOA1@exemplo' })).toEqual(
      await ids({ actorText: 'pessoa1@EXEMPLO' }),
    );

    const special = async (text: string) =>
      (await findActivityPage(database.db, { unit, targetText: text }, 200, 0))
        .filter((row) => row.target === 'exam:DEMO-ESPECIAL')
        .map((row) => row.id);
    expect(await special('conceição araújo')).toHaveLength(1);
    expect(await special('CONCEICAO ARAUJO')).toEqual(await special('conceição araújo'));
    // An accented name in the details is found without its accents, and the other way round.
    const luiza = await countActivity(database.db, { unit, targetText: 'luiza' }, 100_000);
    expect(luiza).toBeGreaterThan(0);
    expect(await countActivity(database.db, { unit, targetText: 'LUÍZA' }, 100_000)).toBe(luiza);

    // The person by CPF: the view of their data, and the change of their account.
    const person = await findActivityPage(
      database.db,
      { unit, targetText: '529.982.247-25', cpf: PERSON },
      50,
      0,
    );
    expect(person.map((row) => row.type).sort()).toEqual(['face_image_view', 'user_role_change']);
  });

  it('the activity total stops at the cap and says so; a narrow one is exact', async () => {
    const all = cappedTotal(await countActivity(database.db, { unit }, TOTAL_COUNT_CAP + 1));
    expect(all).toEqual({ total: TOTAL_COUNT_CAP, totalCapped: true });
    const [counted] = await selectRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from activity_log where federative_unit = ${unit}
        and type = 'checkin_close'`,
    );
    const narrow = cappedTotal(
      await countActivity(database.db, { unit, types: ['checkin_close'] }, TOTAL_COUNT_CAP + 1),
    );
    expect(narrow).toEqual({ total: counted!.n });
  });

  const page = { page: 1, pageSize: 20 };
  const checkInCases: Array<[string, Omit<CheckInSearch, 'page' | 'pageSize'>, string]> = [
    ['every record', {}, 'check_ins_unit_opened_idx'],
    ['one post', { schedulingLocal: 'DEMO.POSTO02' }, 'check_ins_unit_local_idx'],
    ['the open ones', { status: 'open' }, 'check_ins_unit_open_idx'],
    ['the closed ones', { status: 'closed' }, 'check_ins_unit_closed_idx'],
    ['the last 30 days', { ...month }, 'check_ins_unit_opened_idx'],
    [
      'the open ones at one post in the period',
      { ...month, status: 'open', schedulingLocal: 'DEMO.POSTO02' },
      'check_ins_unit',
    ],
    ['an examiner by name', { examiner: 'conceicao' }, 'check_in_viewers_unit_search_name_idx'],
    ['an examiner by CPF', { examiner: '' }, 'check_in_viewers_unit_cpf_idx'],
  ];

  it.each(checkInCases)('the check-in search: %s', async (_name, filter, index) => {
    const [someone] = await selectRows<{ cpf: string }>(
      database.db,
      sql`select cpf from check_in_viewers where federative_unit = ${unit} limit 1`,
    );
    const search = {
      ...page,
      ...filter,
      ...(filter.examiner === '' ? { examiner: someone!.cpf } : {}),
    };
    const statements = await database.explain((db) => searchCheckIns(db, unit, search));
    expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
    expect(indexesRead(statements).some((name) => name.startsWith(index))).toBe(true);
  });

  it('the check-in search ignores case and accents in the name; the total is exact below the cap', async () => {
    const records = async (examiner: string) => {
      const found = await searchCheckIns(database.db, unit, { page: 1, pageSize: 100, examiner });
      return { ids: found.items.map((item) => item.id), counted: found.counted };
    };
    const [expected] = await selectRows<{ n: number }>(
      database.db,
      sql`select count(distinct check_in_id)::int as n from check_in_viewers
        where federative_unit = ${unit} and name like '%Conceição%'`,
    );
    const plain = await records('conceicao');
    expect(plain.counted).toBe(expected!.n);
    expect(plain.counted).toBeGreaterThan(0);
    expect(await records('CONCEIÇÃO')).toEqual(plain);
    expect(await records('Conceição')).toEqual(plain);

    const all = await searchCheckIns(database.db, unit, page);
    expect(all.counted).toBe(UNITS[0]![2]);
  });
});
