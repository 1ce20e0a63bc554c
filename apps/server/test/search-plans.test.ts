/**
 * The activity search and the check-in search at volume: every filter the
 * two screens offer reads `activity_log`, `check_ins` and `check_in_viewers`
 * through an index that matches it (no sequential scan), on both engines,
 * once the tables hold a year of several units and the planner's statistics
 * are fresh. The statements are the repositories' own (captured while they
 * run), and the answers are checked too: the text searches ignore case and
 * accents, the activity total stops at the cap.
 */
import { cappedTotal, SEARCH_COUNT_LIMIT, TOTAL_COUNT_CAP } from '@exame/shared';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANNED_PER_CALL } from '../src/db/prepared-statements';
import { searchable } from '../src/db/schema/index';
import { selectRows } from '../src/db/select-rows';
import { seedDemoExams, seedDemoLocals } from '../src/db/seed/demo-exams';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import {
  appendWebEvents,
  countActivity,
  findActivityPage,
  findActivitySlice,
  type ActivitySearch,
  type WebEventRow,
} from '../src/modules/activity/activity.repository';
import {
  searchCheckIns,
  type CheckInSearch,
} from '../src/modules/check-ins/check-in-search.repository';
import { createPlanDatabase, indexesRead, sequentialScans, type PlanDatabase } from './plans';
import { seedActivity, seedCheckIns, seedPeople } from './search-volume';

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
const YEAR_SECONDS = 365 * 86_400;

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
      await seedPeople(db, unit, { accentedActor: ACCENTED_ACTOR });
      // Exams (the CPF's alternatives look for the person's exams too).
      await seedDemoExams(db, {
        unit,
        exams: 2_000,
        offset: UNITS.findIndex(([name]) => name === unit) * 2_000,
        from: new Date(now.getTime() - 330 * DAY),
        to: new Date(now.getTime() + 35 * DAY),
      });
      // A year of events and of check-ins at the unit's posts.
      await seedActivity(db, unit, { events, spacingSeconds: YEAR_SECONDS / events });
      await seedCheckIns(db, unit, { records, spacingSeconds: YEAR_SECONDS / records });
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
    // A key inside other targets: after a longer kind, and after the target's first colon.
    await db.execute(sql`insert into activity_log (type, actor_id, federative_unit, target, payload)
      values ('load_exam', null, 'DEMO', 'reexam:DEMO-000000124', '{}'::jsonb),
             ('load_exam', null, 'DEMO', 'exam:DEMO-ESPECIAL:exam:Demo-000000124', '{}'::jsonb)`);
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
    ['part of a target', { targetText: 'demo-000000123' }, 'activity_log_unit_text_search_idx'],
    // A key shares the trigrams of every key of its kind: read by its part after the colon.
    ['a target key', { targetText: 'exam:demo-000000124' }, 'activity_log_unit_target_key_idx'],
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
    // A text is planned with its values on every call, never by a prepared generic plan.
    for (const statement of statements) {
      expect(statement.query.includes(PLANNED_PER_CALL)).toBe(
        Boolean(search.actorText || search.targetText),
      );
    }
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

    // A key (a text with a colon) finds the events whose target or details hold it, newest first.
    const holding = await selectRows<{ id: string }>(
      database.db,
      sql`select id from activity_log where federative_unit = ${unit}
        and (${searchable(sql`target`)} like ${'%exam:demo-000000124%'}
          or ${searchable(sql`payload::text`)} like ${'%exam:demo-000000124%'})
        order by created_at desc, chain desc, seq desc`,
    );
    expect(holding.length).toBeGreaterThan(2);
    expect(await ids({ targetText: 'EXAM:Demo-000000124' })).toEqual(holding.map((row) => row.id));
    expect(
      await countActivity(database.db, { unit, targetText: 'exam:demo-000000124' }, 100_000),
    ).toBe(holding.length);

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

  it('the check-in search: a text many examiners share is read in the list order, its total estimated', async () => {
    const [shared] = await selectRows<{ n: number }>(
      database.db,
      sql`select count(distinct check_in_id)::int as n from check_in_viewers
        where federative_unit = ${unit} and name like '%a%'`,
    );
    expect(shared!.n).toBeGreaterThan(SEARCH_COUNT_LIMIT);
    const statements = await database.explain((db) =>
      searchCheckIns(db, unit, { ...page, examiner: 'a' }),
    );
    expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
    const found = await searchCheckIns(database.db, unit, { ...page, examiner: 'A' });
    expect(found.estimated).toBe(true);
    // The planner's estimate, from a sample: of the right size, not exact.
    expect(found.counted).toBeGreaterThan(shared!.n / 3);
    expect(found.counted).toBeLessThan(shared!.n * 3);
    expect(found.items).toHaveLength(20);
    const opened = found.items.map((item) => item.openedAt.getTime());
    expect(opened).toEqual([...opened].sort((a, b) => b - a));
    for (const item of found.items) {
      expect(item.examiners.some((examiner) => /a/i.test(examiner.name))).toBe(true);
    }
    // One examiner's records are counted, not estimated.
    const one = await searchCheckIns(database.db, unit, { ...page, examiner: 'conceicao' });
    expect(one.estimated).toBeUndefined();
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

  it('a web batch finds the events it already has by the actor and client id, not by every event of the actor', async () => {
    // A person who has viewed pages all year.
    const actor = { id: actorId, federativeUnit: unit };
    await database.db.execute(sql`insert into activity_log
        (type, actor_id, federative_unit, target, payload, client_id)
      select 'page_view', ${actorId}, ${unit}, '/exames', '{}'::jsonb, gen_random_uuid()
      from generate_series(1, 3000)`);
    await database.db.execute(sql`analyze activity_log`);
    const event = (clientId: string): WebEventRow => ({
      clientId,
      type: 'page_view',
      occurredAt: new Date().toISOString(),
      target: '/exames',
      deviceId: 'dispositivo',
      appVersion: '1',
    });
    const [stored] = await selectRows<{ client_id: string }>(
      database.db,
      sql`select client_id from activity_log where actor_id = ${actor.id} and client_id is not null limit 1`,
    );
    const batch = [event(stored!.client_id), event(randomUUID())];
    const statements = await database.explain((db) => appendWebEvents(db, actor, batch));
    expect(statements).toHaveLength(1);
    expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
    // Read by the actor and the batch's client ids, not every event of the actor.
    const probes = statements[0]!.nodes.filter(
      (node) => node['Index Name'] === 'activity_log_actor_client_idx',
    );
    expect(probes.length).toBeGreaterThan(0);
    for (const probe of probes) expect(probe['Index Cond']).toMatch(/client_id/);
    // (explain ran it: the new event was stored, the one the log had was not)
    expect(await appendWebEvents(database.db, actor, batch)).toEqual([]);
  });
});
