/**
 * Exam rooms through the API, on both database tiers: rooms and stations of
 * a post, who holds a room, the board of a day with every exam on its
 * station or listed apart, and tenant isolation.
 */
import { dayInZone, zonedDayStartIso } from '@exame/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { selectRows } from '../../db/select-rows';
import {
  createApiKeyFor,
  createPost,
  examPayload,
  postExams,
  sampleJpeg,
} from '../../../test/exams';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Auth = { authorization: string };
type Room = { id: string; stations: Array<{ id: string; code: string }> };

describe('exam rooms', () => {
  let t: TestApp;
  let admin: Signed;
  let inspector: Signed;
  let viewer: Signed;
  let key: string;
  const today = dayInZone(new Date());
  const at = (hour: string) => zonedDayStartIso(today).replace('T00:00', `T${hour}`);

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    inspector = await seedSignedIn(t.app, {
      role: 'ROOM_INSPECTOR',
      unit: 'SP',
      name: 'Fiscal Sé',
    });
    viewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP', name: 'Examinador Sé' });
    for (const identifier of ['SP.POSTO01', 'SP.POSTO02']) {
      await createPost(t.app, admin.auth, identifier);
    }
    key = (await createApiKeyFor(t.app, admin.auth)).key;
  }, 60_000);
  afterAll(() => t.close());

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, auth: Auth, payload?: object) =>
    t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });

  const createRoom = (
    auth: Auth,
    schedulingLocal: string,
    code: string,
    name: string,
    more: object = {},
  ) => inject('POST', '/api/ExamRoom', auth, { schedulingLocal, code, name, ...more });

  /** A room the admin creates, its stations at positions 1, 2, … in the order given. */
  const addRoom = async (schedulingLocal: string, code: string, name: string, stations: string[]) =>
    (
      await createRoom(
        admin.auth,
        schedulingLocal,
        code,
        name,
        stations.length
          ? { stations: stations.map((station, i) => ({ code: station, position: i + 1 })) }
          : {},
      )
    ).json() as Room;

  const push = (exams: object[]) => postExams(t.app, key, exams);

  /** An exam of today at `hour`, on a station of the room whose local is `local`. */
  const roomExam = (local: string, schedulingId: string, hour: string, station: string) =>
    examPayload({
      schedulingId,
      schedulingDate: at(hour),
      station,
      metadata: { schedulingLocal: local },
    });

  const board = (roomId: string, auth: Auth) =>
    inject('GET', `/api/ExamRoom/${roomId}/board`, auth);
  const canAct = async (roomId: string, auth: Auth) =>
    (await board(roomId, auth)).json().canAct as boolean;

  /** The signed-in examiner checks themself in at a post (in one of its rooms). */
  const checkIn = (who: Signed, schedulingLocal: string, examRoomId?: string) =>
    inject('POST', '/api/SchedulingLocalCheckIn/checkIn', who.auth, {
      viewers: [{ cpf: who.user.cpf }],
      schedulingLocal,
      ...(examRoomId ? { examRoomId } : {}),
    });

  const act = (roomId: string, examId: string, action: string, auth: Auth) =>
    inject('POST', `/api/ExamRoom/${roomId}/exams/${examId}/action`, auth, { action });

  const putStation = (roomId: string, stationId: string, payload: object) =>
    inject('PUT', `/api/ExamRoom/${roomId}/stations/${stationId}`, admin.auth, payload);

  it('ADMIN and ROOM_INSPECTOR create rooms with stations; codes are unique per post', async () => {
    const created = await createRoom(inspector.auth, 'SP.POSTO01', 'S1', 'Sala 1', {
      stations: [
        { code: 'Estação 02', position: 2 },
        { code: 'Estação 01', position: 1 },
      ],
      federativeUnit: 'DF',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      federativeUnit: 'SP',
      schedulingLocal: 'SP.POSTO01',
      code: 'S1',
      name: 'Sala 1',
      examLocal: 'SP.POSTO01-S1',
      isActive: true,
      heldBy: [],
    });
    expect(created.json().stations.map((s: { code: string }) => s.code)).toEqual([
      'Estação 01',
      'Estação 02',
    ]);
    const again = await createRoom(admin.auth, 'SP.POSTO01', 'S1', 'Outra');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      Error: 'Já existe uma sala com este código no posto.',
      code: 'ROOM_CODE_TAKEN',
    });
    // The same code at another post is another room.
    expect((await createRoom(admin.auth, 'SP.POSTO02', 'S1', 'Sala 1')).statusCode).toBe(201);
    const badCode = await createRoom(admin.auth, 'SP.POSTO01', 'S-2', 'Sala');
    expect(badCode.statusCode).toBe(400);
    const unknownPost = await createRoom(admin.auth, 'SP.NAOEXISTE', 'S3', 'Sala 3');
    expect(unknownPost.json().code).toBe('ROOM_POST_NOT_FOUND');
    const duplicateStations = await createRoom(admin.auth, 'SP.POSTO01', 'S4', 'Sala 4', {
      stations: [
        { code: 'E1', position: 1 },
        { code: 'E1', position: 2 },
      ],
    });
    expect(duplicateStations.json().code).toBe('STATION_CODE_TAKEN');
    // CE has proctoring disabled (spec 9): no exam rooms there.
    const ceAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'CE' });
    const ce = await createRoom(ceAdmin.auth, 'CE.X', 'S1', 'Sala');
    expect(ce.json().code).toBe('ROOM_PROCTORING_DISABLED');
  });

  it('the board: every exam of the room on its station, the others listed apart; counters; who may act', async () => {
    const room = await addRoom('SP.POSTO01', 'S2', 'Sala 2', [
      'Estação 01',
      'Estação 02',
      'Estação 03',
    ]);
    const pushed = await push([
      { ...roomExam('SP.POSTO01-S2', 'S2-A', '08:00', 'Estação 01'), status: 'started' },
      roomExam('SP.POSTO01-S2', 'S2-B', '09:00', 'Estação 02'),
      roomExam('SP.POSTO01-S2', 'S2-C', '10:00', 'Estação 99'),
      roomExam('SP.POSTO01-S9', 'S9-X', '10:00', 'Estação 01'),
    ]);
    expect(pushed.statusCode, pushed.body).toBe(200);
    // A station taken off the board.
    await putStation(room.id, room.stations[2]!.id, { isActive: false });

    const viewed = await board(room.id, viewer.auth);
    expect(viewed.statusCode, viewed.body).toBe(200);
    const body = viewed.json();
    expect(body.day).toBe(today);
    expect(body.counters).toEqual({
      total: 3,
      scheduled: 2,
      started: 1,
      interrupted: 0,
      absent: 0,
      finished: 0,
    });
    expect(
      body.stations.map(
        (s: { station: { code: string }; exam: { schedulingId: string } | null }) => [
          s.station.code,
          s.exam?.schedulingId ?? null,
        ],
      ),
    ).toEqual([
      ['Estação 01', 'S2-A'],
      ['Estação 02', 'S2-B'],
    ]);
    expect(body.stations[0].exam).toMatchObject({
      stationStatus: 'started',
      candidateCpf: '***.982.247-**',
    });
    expect(body.unplaced.map((e: { schedulingId: string }) => e.schedulingId)).toEqual(['S2-C']);
    // Nobody has checked in: only ADMIN may act.
    expect(body.canAct).toBe(false);
    expect(await canAct(room.id, admin.auth)).toBe(true);
    // The post's exams whose room no room names.
    const apart = await inject(
      'GET',
      `/api/ExamRoom/unplaced?schedulingLocal=SP.POSTO01`,
      admin.auth,
    );
    expect(apart.json().map((e: { schedulingId: string }) => e.schedulingId)).toEqual(['S9-X']);

    // The post has rooms: the check-in names one of them, active and of that post.
    expect((await checkIn(viewer, 'SP.POSTO01')).json()).toMatchObject({
      Error: 'Escolha a sala de prova em que vai trabalhar.',
      code: 'CHECKIN_ROOM_REQUIRED',
    });
    const otherPostRoom = (
      await inject('GET', '/api/ExamRoom?schedulingLocal=SP.POSTO02', admin.auth)
    ).json()[0].id as string;
    expect((await checkIn(viewer, 'SP.POSTO01', otherPostRoom)).json().code).toBe(
      'CHECKIN_ROOM_NOT_FOUND',
    );
    const opened = await checkIn(viewer, 'SP.POSTO01', room.id);
    expect(opened.statusCode, opened.body).toBe(201);
    const record = await inject(
      'GET',
      `/api/SchedulingLocalCheckIn/findCheckInById/${opened.json().id}`,
      viewer.auth,
    );
    expect(record.json().examRoom).toEqual({ id: room.id, name: 'Sala 2', code: 'S2' });
    // One open record per room: another examiner joins it instead of opening a second.
    const second = await checkIn(inspector, 'SP.POSTO01', room.id);
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('CHECKIN_ROOM_TAKEN');
    // The room's board heard of the check-in (check_in_changed, on the room's local).
    const announced = await selectRows<{ scheduling_local: string }>(
      t.database.db,
      sql`select scheduling_local from realtime_events
          where kind = 'check_in_changed' and payload->>'checkInId' = ${opened.json().id}`,
    );
    expect(announced.map((row) => row.scheduling_local)).toEqual(['SP.POSTO01-S2']);
    // The post's other room is not held by it.
    const s1 = (await inject('GET', '/api/ExamRoom?schedulingLocal=SP.POSTO01', admin.auth))
      .json()
      .find((r: { code: string }) => r.code === 'S1');
    expect(await canAct(s1.id, viewer.auth)).toBe(false);
    const held = await board(room.id, viewer.auth);
    expect(held.json().canAct).toBe(true);
    expect(held.json().room.heldBy).toEqual([
      {
        checkInId: opened.json().id,
        openedAt: opened.json().checkInDate,
        examiners: ['Examinador Sé'],
      },
    ]);
    expect(await canAct(room.id, inspector.auth)).toBe(false);
    // The rooms the examiner holds now (their home lists them).
    const mine = await inject('GET', '/api/ExamRoom?mine=true', viewer.auth);
    expect(mine.json().map((r: { id: string }) => r.id)).toContain(room.id);
    expect((await inject('GET', '/api/ExamRoom?mine=true', inspector.auth)).json()).toEqual([]);
    // Another day: nothing.
    const yesterday = await inject(
      'GET',
      `/api/ExamRoom/${room.id}/board?day=2020-01-01`,
      viewer.auth,
    );
    expect(yesterday.json().counters.total).toBe(0);
  });

  it('editing: rename, move a station, deactivate the room', async () => {
    const room = await addRoom('SP.POSTO02', 'S5', 'Sala 5', ['E1']);
    const addStation = (code: string, position: number) =>
      inject('POST', `/api/ExamRoom/${room.id}/stations`, inspector.auth, { code, position });
    const added = await addStation('E2', 2);
    expect(added.statusCode).toBe(201);
    const duplicate = await addStation('E2', 3);
    expect(duplicate.json().code).toBe('STATION_CODE_TAKEN');
    const e2 = added.json().stations.find((s: { code: string }) => s.code === 'E2');
    const moved = await putStation(room.id, e2.id, { position: 0.5 });
    expect(moved.statusCode).toBe(400);
    const first = await putStation(room.id, e2.id, { position: 1, code: 'E0' });
    expect(first.json().stations.map((s: { code: string }) => s.code)).toEqual(['E0', 'E1']);
    const renamed = await inject('PUT', `/api/ExamRoom/${room.id}`, admin.auth, {
      name: 'Sala Cinco',
      isActive: false,
    });
    expect(renamed.json()).toMatchObject({ name: 'Sala Cinco', isActive: false });
    const listed = await inject('GET', '/api/ExamRoom?schedulingLocal=SP.POSTO02', viewer.auth);
    expect(listed.json().map((r: { code: string }) => r.code)).toEqual(['S1']);
    const all = await inject(
      'GET',
      '/api/ExamRoom?schedulingLocal=SP.POSTO02&includeInactive=true',
      viewer.auth,
    );
    expect(all.json().map((r: { code: string }) => r.code)).toEqual(['S1', 'S5']);
  });

  it('the examiner’s actions go through the state machine; only who holds the room acts', async () => {
    const room = await addRoom('SP.POSTO02', 'S3', 'Sala 3', ['E1', 'E2']);
    await push([
      { ...roomExam('SP.POSTO02-S3', 'S3-RUN', '08:00', 'E1'), status: 'started' },
      roomExam('SP.POSTO02-S3', 'S3-WAIT', '11:00', 'E2'),
      roomExam('SP.POSTO02-S1', 'OTHER-ROOM', '11:00', 'E2'),
    ]);
    const roomBoard = () => board(room.id, admin.auth);
    const examOf = async (schedulingId: string) =>
      (await roomBoard())
        .json()
        .exams.find((e: { schedulingId: string }) => e.schedulingId === schedulingId);
    const running = await examOf('S3-RUN');
    const waiting = await examOf('S3-WAIT');
    const holderAct = (examId: string, action: string) => act(room.id, examId, action, holder.auth);

    // Not checked in to the room: refused.
    const holder = await seedSignedIn(t.app, {
      role: 'ROOM_INSPECTOR',
      unit: 'SP',
      name: 'Fiscal S3',
    });
    const refused = await holderAct(running.id, 'interrupt');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ROOM_NOT_HELD');
    const checkedIn = await checkIn(holder, 'SP.POSTO02', room.id);
    expect(checkedIn.statusCode, checkedIn.body).toBe(201);

    const interrupted = await holderAct(running.id, 'interrupt');
    expect(interrupted.statusCode, interrupted.body).toBe(200);
    expect(interrupted.json()).toMatchObject({ stationStatus: 'interrupted', interrupted: true });
    expect((await roomBoard()).json().counters).toMatchObject({ started: 0, interrupted: 1 });
    const twice = await holderAct(running.id, 'interrupt');
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      Error: 'O exame já está interrompido.',
      code: 'ROOM_ACTION_INVALID',
    });
    expect((await holderAct(running.id, 'finish')).json().Error).toBe(
      'Retome o exame interrompido antes de finalizá-lo.',
    );
    expect((await holderAct(running.id, 'resume')).json().stationStatus).toBe('started');
    const finished = await holderAct(running.id, 'finish');
    expect(finished.json()).toMatchObject({
      status: 'done',
      result: 'in_analysis',
      stationStatus: 'processing',
    });
    expect((await holderAct(running.id, 'absence')).json().Error).toBe(
      'A ausência só pode ser registrada em um exame agendado, antes do início.',
    );
    expect((await holderAct(waiting.id, 'interrupt')).json().Error).toBe(
      'Só um exame em andamento pode ser interrompido.',
    );
    expect((await holderAct(waiting.id, 'absence')).json()).toMatchObject({
      status: 'absence',
      stationStatus: 'absent',
    });
    // An exam of another room is not this room's.
    const other = (
      await selectRows<{ id: string }>(
        t.database.db,
        sql`select id from exams where scheduling_id = 'OTHER-ROOM'`,
      )
    )[0]!;
    expect((await holderAct(other.id, 'absence')).statusCode).toBe(404);

    // The history and the activity log say who did it; finishing is send_result.
    const history = await selectRows<{ to_status: string; source: string; actor_id: string }>(
      t.database.db,
      sql`select to_status, source, actor_id from exam_status_history where exam_id = ${running.id} and source = 'user'`,
    );
    expect(history).toEqual([{ to_status: 'done', source: 'user', actor_id: holder.user.id }]);
    const activity = await selectRows<{ type: string }>(
      t.database.db,
      sql`select type from activity_log where actor_id = ${holder.user.id} and type in ('room_action', 'send_result') order by created_at`,
    );
    expect(activity.map((row) => row.type)).toEqual([
      'room_action',
      'room_action',
      'send_result',
      'room_action',
    ]);

    // The exam's detail names its room and who held it while the exam ran.
    const detail = await inject('GET', '/api/Exam/S3-RUN', admin.auth);
    expect(detail.json().room).toMatchObject({ name: 'Sala 3', code: 'S3' });
    expect(detail.json().custody.map((entry: { name: string }) => entry.name)).toEqual([
      'Fiscal S3',
    ]);
    // Another room of the post (its S1), named by the exam's local.
    expect((await inject('GET', '/api/Exam/OTHER-ROOM', admin.auth)).json().room).toMatchObject({
      code: 'S1',
    });
    expect((await inject('GET', '/api/Exam/S9-X', admin.auth)).json().room).toBeNull();

    // An occurrence with a photo; a photo that is not an image is refused and nothing is written.
    const report = (auth: Auth, description: string, photo?: Buffer) =>
      inject('POST', `/api/ExamRoom/${room.id}/exams/${running.id}/occurrences`, auth, {
        type: 'terceiro',
        description,
        ...(photo ? { photo: photo.toString('base64') } : {}),
      });
    const occurrence = await report(
      holder.auth,
      'Outra pessoa apareceu atrás do candidato.',
      await sampleJpeg(320),
    );
    expect(occurrence.statusCode, occurrence.body).toBe(201);
    expect(occurrence.json()).toMatchObject({ occurrences: 1, photos: 1 });
    const bad = await report(holder.auth, 'Foto inválida.', Buffer.from('<svg onload=alert(1)>'));
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    expect((await examOf('S3-RUN')).occurrences).toBe(1);
    expect((await report(viewer.auth, 'Sem entrada nesta sala.')).statusCode).toBe(403);
  });

  it('a record of a post without rooms holds the rooms the post gets later; its changes reach them', async () => {
    await inject('POST', '/api/SchedulingLocal', admin.auth, {
      identifier: 'SP.POSTO03',
      description: 'Posto sem salas',
    });
    const examiner = await seedSignedIn(t.app, {
      role: 'VIEWER',
      unit: 'SP',
      name: 'Examinador P3',
    });
    const opened = await checkIn(examiner, 'SP.POSTO03');
    expect(opened.statusCode, opened.body).toBe(201);
    const room = await addRoom('SP.POSTO03', 'S1', 'Sala 1', []);
    expect(await canAct(room.id, examiner.auth)).toBe(true);
    const out = await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', examiner.auth, {
      checkInId: opened.json().id,
    });
    expect(out.statusCode, out.body).toBe(200);
    const announced = await selectRows<{ scheduling_local: string; status: string }>(
      t.database.db,
      sql`select scheduling_local, payload->>'status' as status from realtime_events
          where kind = 'check_in_changed' and payload->>'checkInId' = ${opened.json().id}
          order by id`,
    );
    expect(announced).toEqual([
      { scheduling_local: 'SP.POSTO03', status: 'open' },
      { scheduling_local: 'SP.POSTO03', status: 'closed' },
      { scheduling_local: 'SP.POSTO03-S1', status: 'closed' },
    ]);
    expect(await canAct(room.id, examiner.auth)).toBe(false);
  });

  it('an interruption ends with the run; cancelled exams are not counted; codes that exams name stay', async () => {
    const room = await addRoom('SP.POSTO02', 'S6', 'Sala 6', ['E1', 'E2', 'E3']);
    const exam = (schedulingId: string, station: string, more: object) => ({
      ...roomExam('SP.POSTO02-S6', schedulingId, '09:00', station),
      ...more,
    });
    await push([
      exam('S6-RUN', 'E1', { status: 'started' }),
      exam('S6-OFF', 'E2', { status: 'cancelled' }),
    ]);
    const roomBoard = async () => (await board(room.id, admin.auth)).json();
    const run = (await roomBoard()).exams.find(
      (e: { schedulingId: string }) => e.schedulingId === 'S6-RUN',
    );
    expect((await act(room.id, run.id, 'interrupt', admin.auth)).statusCode).toBe(200);
    expect((await roomBoard()).counters).toMatchObject({ total: 1, started: 0, interrupted: 1 });
    // The delivery system finishes the interrupted exam: no longer interrupted anywhere.
    const done = await push([exam('S6-RUN', 'E1', { status: 'done', result: 'approved' })]);
    expect(done.statusCode, done.body).toBe(200);
    const after = await roomBoard();
    expect(after.counters).toMatchObject({ total: 1, interrupted: 0, finished: 1 });
    expect(after.stations[0].exam).toMatchObject({
      interrupted: false,
      stationStatus: 'approved',
    });
    const [row] = await selectRows<{ interrupted_at: string | null }>(
      t.database.db,
      sql`select interrupted_at from exams where scheduling_id = 'S6-RUN'`,
    );
    expect(row!.interrupted_at).toBeNull();

    // Exams name the room and its stations by code: those codes cannot change.
    const recode = await inject('PUT', `/api/ExamRoom/${room.id}`, admin.auth, { code: 'S66' });
    expect(recode.statusCode).toBe(409);
    expect(recode.json().code).toBe('ROOM_CODE_IN_USE');
    expect(
      (await inject('PUT', `/api/ExamRoom/${room.id}`, admin.auth, { name: 'Sala Seis' })).json()
        .name,
    ).toBe('Sala Seis');
    const [e1, , e3] = room.stations;
    const named = await putStation(room.id, e1!.id, { code: 'E10' });
    expect(named.json().code).toBe('STATION_CODE_IN_USE');
    // A station no exam names may take another code.
    const free = await putStation(room.id, e3!.id, { code: 'E30' });
    expect(free.statusCode, free.body).toBe(200);
  });

  it('tenant isolation: another unit neither sees nor changes a room', async () => {
    const room = await addRoom('SP.POSTO01', 'S7', 'Sala 7', []);
    const df = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    for (const [method, url, payload] of [
      ['GET', `/api/ExamRoom/${room.id}`, undefined],
      ['GET', `/api/ExamRoom/${room.id}/board`, undefined],
      ['PUT', `/api/ExamRoom/${room.id}`, { name: 'Invadida' }],
      ['POST', `/api/ExamRoom/${room.id}/stations`, { code: 'X', position: 1 }],
    ] as const) {
      expect((await inject(method, url, df.auth, payload)).statusCode, `${method} ${url}`).toBe(
        404,
      );
    }
    expect((await inject('GET', '/api/ExamRoom', df.auth)).json()).toEqual([]);
    // Naming another unit's post creates nothing there.
    const foreign = await createRoom(df.auth, 'SP.POSTO01', 'S8', 'Sala 8');
    expect(foreign.json().code).toBe('ROOM_POST_NOT_FOUND');
    expect((await inject('GET', `/api/ExamRoom/${room.id}`, admin.auth)).json().name).toBe(
      'Sala 7',
    );
  });
});
