/**
 * Check-in and check-out through the API, on both database tiers, in a unit
 * without face validation (SP): the second-examiner rules, each call's
 * errors, tenant isolation, one open record per examiner (also under
 * concurrent requests) and examiner 1's session left intact by examiner 2's
 * password check. The face flow of DF is in check-ins.face.test.ts.
 */
import { addDays, dayInZone, maskCpf, maskEmail, zonedDayStartIso } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { createApiKeyFor, examPayload, postExams } from '../../../test/exams';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, seedSignedIn, seedUser } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

describe('examiner check-in and check-out (unit without face validation)', () => {
  let t: TestApp;
  let admin: Signed;
  let first: Signed;
  let auditor: Signed;
  let dfViewer: Signed;
  const post = 'SP.POSTO01';

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    first = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP', name: 'Ana Examinadora' });
    auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP' });
    dfViewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    for (const [auth, identifier, description] of [
      [admin.auth, post, 'Posto Sé'],
      [admin.auth, 'SP.POSTO02', 'Posto Lapa'],
    ] as const) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/SchedulingLocal',
        headers: auth,
        payload: { identifier, description },
      });
      expect(created.statusCode).toBe(201);
    }
    // Exams of the post today (two rooms), of another post, and of the post yesterday.
    const key = await createApiKeyFor(t.app, admin.auth);
    const today = dayInZone(new Date());
    const at = (day: string, hour: string) => zonedDayStartIso(day).replace('T00:00', `T${hour}`);
    const pushed = await postExams(t.app, key.key, [
      examPayload({
        schedulingId: 'SP-HOJE-1',
        schedulingDate: at(today, '09:00'),
        metadata: { schedulingLocal: `${post}-S1` },
      }),
      examPayload({
        schedulingId: 'SP-HOJE-2',
        schedulingDate: at(today, '10:30'),
        metadata: { schedulingLocal: `${post}-S2` },
      }),
      examPayload({
        schedulingId: 'SP-OUTRO-POSTO',
        schedulingDate: at(today, '09:00'),
        metadata: { schedulingLocal: 'SP.POSTO02-S1' },
      }),
      examPayload({
        schedulingId: 'SP-ONTEM',
        schedulingDate: at(addDays(today, -1), '09:00'),
        metadata: { schedulingLocal: `${post}-S1` },
      }),
    ]);
    expect(pushed.statusCode, pushed.body).toBe(200);
  }, 60_000);
  afterAll(() => t.close());

  const inject = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    auth: { authorization: string },
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: auth,
      ...(payload ? { payload: payload as object } : {}),
    });

  /** Examiner 2's confirmation for opening a room at `post` unless `target` says what else. */
  const confirmSecond = (
    auth: { authorization: string },
    email: string,
    password = DEFAULT_PASSWORD,
    target: { schedulingLocal?: string; checkInId?: string } = { schedulingLocal: post },
  ) => inject('POST', '/api/Auth/viewer-checkin', auth, { email, password, ...target });

  async function newExaminer(name: string, role: 'VIEWER' | 'ROOM_INSPECTOR' = 'VIEWER') {
    return seedSignedIn(t.app, { role, unit: 'SP', name });
  }

  it('getConfig: what the caller’s unit requires, and nothing of another unit', async () => {
    const sp = await inject(
      'GET',
      '/api/SchedulingLocalCheckIn/getConfig?federativeUnit=sp',
      first.auth,
    );
    expect(sp.statusCode).toBe(200);
    expect(sp.json()).toEqual({
      federativeUnit: 'SP',
      faceValidationRequired: false,
      secondExaminerAllowed: true,
      maxViewers: 2,
      proctoringEnabled: true,
      faceAloneAllowed: false,
    });
    const df = await inject(
      'GET',
      '/api/SchedulingLocalCheckIn/getConfig?federativeUnit=DF',
      dfViewer.auth,
    );
    expect(df.json()).toMatchObject({ federativeUnit: 'DF', faceValidationRequired: true });
    const other = await inject(
      'GET',
      '/api/SchedulingLocalCheckIn/getConfig?federativeUnit=DF',
      first.auth,
    );
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('CHECKIN_OTHER_UNIT');
  });

  it('examiner 2: each rule of spec 5 with its text, and examiner 1’s session left as it was', async () => {
    const second = await seedUser(t.app, {
      role: 'ROOM_INSPECTOR',
      unit: 'SP',
      name: 'Bruno Fiscal',
    });
    const sessionsOf = async (userId: string) =>
      (
        await selectRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from sessions where user_id = ${userId}`,
        )
      )[0]?.n;

    const ok = await confirmSecond(first.auth, second.email);
    expect(ok.statusCode, ok.body).toBe(200);
    // The browser keeps examiner 2 masked: the token names them from here on.
    expect(ok.json().user).toEqual({
      id: second.id,
      name: 'Bruno Fiscal',
      email: maskEmail(second.email),
      cpf: maskCpf(second.cpf),
      federativeUnit: 'SP',
      roleDescription: 'ROOM_INSPECTOR',
    });
    // A random token (the server keeps only its hash), good for one admission.
    expect(ok.json().proctoringToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // No session was opened for examiner 2, and examiner 1 is still signed in as before.
    expect(await sessionsOf(second.id)).toBe(0);
    const me = await inject(
      'GET',
      '/api/SchedulingLocalCheckIn/getConfig?federativeUnit=SP',
      first.auth,
    );
    expect(me.statusCode).toBe(200);

    const same = await confirmSecond(first.auth, first.user.email);
    expect(same.json()).toMatchObject({
      Error: 'O examinador 2 não pode ser o mesmo que o examinador 1.',
      code: 'CHECKIN_SAME_EXAMINER',
    });
    const otherUnit = await confirmSecond(first.auth, dfViewer.user.email);
    expect(otherUnit.statusCode).toBe(404);
    expect(otherUnit.json()).toMatchObject({
      Error: 'Usuário não encontrado!',
      code: 'CHECKIN_EXAMINER_NOT_FOUND',
    });
    const notExaminer = await confirmSecond(first.auth, auditor.user.email);
    expect(notExaminer.statusCode).toBe(403);
    expect(notExaminer.json()).toMatchObject({
      Error: 'Usuário não tem permissão para participar da sala!',
      code: 'CHECKIN_EXAMINER_NOT_ALLOWED',
    });
    // Without the password, nothing is told about the account.
    const wrong = await confirmSecond(first.auth, dfViewer.user.email, 'Errada#Senha123');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('invalid-credentials');
    // The same answer but for the id of each request.
    const answer = (response: { json: () => Record<string, unknown> }) => ({
      ...response.json(),
      requestId: undefined,
    });
    const missing = await confirmSecond(first.auth, 'ninguem@teste.gov.br', 'Errada#Senha123');
    expect(answer(missing)).toEqual(answer(wrong));
    const disabled = await seedUser(t.app, {
      role: 'VIEWER',
      unit: 'SP',
      registerStatus: 'disabled',
    });
    expect(answer(await confirmSecond(first.auth, disabled.email))).toEqual(answer(wrong));
  });

  it('check-in: the missing and unknown post, the proofs of identity, then the room opens for two', async () => {
    const one = await newExaminer('Carla Um');
    const two = await seedUser(t.app, { role: 'VIEWER', unit: 'SP', name: 'Diego Dois' });

    const missing = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }],
      schedulingLocal: '',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      Error:
        'O local da sala não foi informado. Verifique se o certificado foi gerado corretamente.',
      code: 'CHECKIN_LOCAL_REQUIRED',
    });
    const unknown = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }],
      schedulingLocal: 'SP.NAOEXISTE',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('CHECKIN_LOCAL_NOT_FOUND');

    // Examiner 2 named without proof of identity, or with another session's proof.
    const unproven = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }, { cpf: two.cpf }],
      schedulingLocal: post,
    });
    expect(unproven.statusCode).toBe(403);
    expect(unproven.json().code).toBe('CHECKIN_IDENTITY_REQUIRED');
    const someoneElse = await newExaminer('Outra Pessoa');
    const foreignToken = (await confirmSecond(someoneElse.auth, two.email)).json().proctoringToken;
    const stolen = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }, { cpf: two.cpf, proctoringToken: foreignToken }],
      schedulingLocal: post,
    });
    expect(stolen.statusCode).toBe(401);
    expect(stolen.json().code).toBe('PROCTORING_TOKEN_INVALID');
    const twice = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }, { cpf: one.user.cpf }],
      schedulingLocal: post,
    });
    expect(twice.json().Error).toBe('O examinador 2 não pode ser o mesmo que o examinador 1.');
    const auditorViewer = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }, { cpf: auditor.user.cpf }],
      schedulingLocal: post,
    });
    expect(auditorViewer.json().Error).toBe('Usuário não tem permissão para participar da sala!');
    expect(
      (
        await selectRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from check_ins where opened_by = ${one.user.id}`,
        )
      )[0]?.n,
    ).toBe(0);

    const token = (await confirmSecond(one.auth, two.email)).json().proctoringToken as string;
    // A token and a CPF that name different people are refused.
    const mismatch = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }, { cpf: auditor.user.cpf, proctoringToken: token }],
      schedulingLocal: post,
    });
    expect(mismatch.json().code).toBe('PROCTORING_TOKEN_INVALID');
    // Examiner 2 named by the token alone, as the room screen sends them.
    const opened = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf, name: 'ignorado' }, { proctoringToken: token }],
      schedulingLocal: post,
      deviceId: '0b5a6a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const { id, checkInDate } = opened.json() as { id: string; checkInDate: string };
    expect(Date.parse(checkInDate)).toBeGreaterThan(Date.now() - 60_000);

    const found = await inject(
      'GET',
      `/api/SchedulingLocalCheckIn/findCheckIn?viewerCpf=${two.cpf}&schedulingLocal=${post}`,
      one.auth,
    );
    expect(found.statusCode).toBe(200);
    const record = found.json();
    expect(record).toMatchObject({
      id,
      status: 'open',
      schedulingLocal: post,
      schedulingLocalDescription: 'Posto Sé',
      openedBy: { id: one.user.id, name: 'Carla Um' },
      deviceId: '0b5a6a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
      faceValidationRequired: false,
      checkOutDate: null,
    });
    expect(
      record.viewers.map((viewer: { name: string; cpf: string }) => [viewer.name, viewer.cpf]),
    ).toEqual([
      ['Carla Um', maskCpf(one.user.cpf)],
      ['Diego Dois', maskCpf(two.cpf)],
    ]);
    expect(record.history.map((event: { type: string }) => event.type)).toEqual([
      'open',
      'viewer_add',
      'viewer_add',
    ]);
    // Outside DF too, each examiner's row says how they proved who they are.
    expect(record.viewers.map((viewer: { admittedBy: string }) => viewer.admittedBy)).toEqual([
      'session',
      'proctoring',
    ]);

    // The exams of the post and day: both rooms, not another post nor another day.
    const exams = await inject(
      'GET',
      `/api/SchedulingLocalCheckIn/exams?checkInId=${id}`,
      one.auth,
    );
    expect(exams.statusCode).toBe(200);
    expect(exams.json().items.map((exam: { schedulingId: string }) => exam.schedulingId)).toEqual([
      'SP-HOJE-1',
      'SP-HOJE-2',
    ]);
    expect(exams.json().items[0].cpf).toBe('***.982.247-**');

    // The activity event was written with the record.
    const events = await selectRows<{ type: string }>(
      t.database.db,
      sql`select type from activity_log where actor_id = ${one.user.id} and type like 'checkin_%'`,
    );
    expect(events.map((event) => event.type)).toEqual(['checkin_open']);
  });

  it('one open record per examiner: a second check-in gets 409 with the record it met', async () => {
    const one = await newExaminer('Eduarda Uma');
    const opened = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }],
      schedulingLocal: post,
    });
    expect(opened.statusCode).toBe(201);
    const again = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }],
      schedulingLocal: 'SP.POSTO02',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CHECKIN_ALREADY_OPEN',
      id: opened.json().id,
      checkInDate: opened.json().checkInDate,
    });
    expect(again.json().Error).toContain(
      'Eduarda Uma já tem uma entrada aberta no posto Posto Sé (SP.POSTO01), desde ',
    );
    // Another examiner cannot take someone who is already in a room as examiner 2.
    const other = await newExaminer('Felipe Outro');
    const token = (await confirmSecond(other.auth, one.user.email)).json().proctoringToken;
    const taken = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', other.auth, {
      viewers: [{ cpf: other.user.cpf }, { cpf: one.user.cpf, proctoringToken: token }],
      schedulingLocal: post,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().id).toBe(opened.json().id);
  });

  it('checking in several times at once creates one record', async () => {
    const one = await newExaminer('Gabriela Concorrente');
    const attempts = await Promise.all(
      Array.from({ length: 6 }, () =>
        inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
          viewers: [{ cpf: one.user.cpf }],
          schedulingLocal: post,
        }),
      ),
    );
    const statuses = attempts.map((attempt) => attempt.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const winner = attempts.find((attempt) => attempt.statusCode === 201)!.json().id;
    for (const lost of attempts.filter((attempt) => attempt.statusCode === 409)) {
      expect(lost.json()).toMatchObject({ code: 'CHECKIN_ALREADY_OPEN', id: winner });
    }
    const rows = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from check_ins where opened_by = ${one.user.id}`,
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('update-checkIn adds and removes an examiner; the last one cannot be removed', async () => {
    const one = await newExaminer('Henrique Um');
    const two = await seedUser(t.app, { role: 'VIEWER', unit: 'SP', name: 'Isabela Dois' });
    const id = (
      await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
        viewers: [{ cpf: one.user.cpf }],
        schedulingLocal: post,
      })
    ).json().id;
    const url = `/api/SchedulingLocalCheckIn/update-checkIn/${id}`;
    expect((await inject('PUT', url, one.auth, {})).json().code).toBe('CHECKIN_UPDATE_EMPTY');
    const forRecord = { checkInId: id };
    const token = (await confirmSecond(one.auth, two.email, DEFAULT_PASSWORD, forRecord)).json()
      .proctoringToken;
    const added = await inject('PUT', url, one.auth, {
      add: { cpf: two.cpf, proctoringToken: token },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().viewers).toHaveLength(2);
    const third = await seedUser(t.app, { role: 'VIEWER', unit: 'SP' });
    const thirdToken = (
      await confirmSecond(one.auth, third.email, DEFAULT_PASSWORD, forRecord)
    ).json().proctoringToken;
    const full = await inject('PUT', url, one.auth, {
      add: { cpf: third.cpf, proctoringToken: thirdToken },
    });
    expect(full.json().code).toBe('CHECKIN_TOO_MANY_VIEWERS');

    const twoId = added.json().viewers[1].id;
    const removed = await inject('PUT', url, one.auth, { removeViewerId: twoId });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().viewers[1].removedAt).not.toBeNull();
    const last = await inject('PUT', url, one.auth, { removeViewerId: added.json().viewers[0].id });
    expect(last.statusCode).toBe(400);
    expect(last.json().code).toBe('CHECKIN_LAST_VIEWER');
    // Removed, examiner 2 is free to open a room of their own.
    const twoSigned = await t.app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email: two.email, password: DEFAULT_PASSWORD },
    });
    const ownRoom = await inject(
      'POST',
      '/api/SchedulingLocalCheckIn/checkIn',
      { authorization: `Bearer ${twoSigned.json().token}` },
      { viewers: [{ cpf: two.cpf }], schedulingLocal: 'SP.POSTO02' },
    );
    expect(ownRoom.statusCode).toBe(201);
  });

  it('transfer: the room passes to another examiner proven by password, recorded in the history and the activity log', async () => {
    const giver = await newExaminer('Paula Entrega');
    const taker = await seedUser(t.app, {
      role: 'ROOM_INSPECTOR',
      unit: 'SP',
      name: 'Quirino Recebe',
    });
    const id = (
      await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', giver.auth, {
        viewers: [{ cpf: giver.user.cpf }],
        schedulingLocal: post,
      })
    ).json().id as string;
    const giverViewer = (
      await inject('GET', `/api/SchedulingLocalCheckIn/findCheckInById/${id}`, giver.auth)
    ).json().viewers[0].id as string;
    const transfer = (body: object, auth = giver.auth) =>
      inject('POST', '/api/SchedulingLocalCheckIn/transfer', auth, {
        checkInId: id,
        fromViewerId: giverViewer,
        ...body,
      });

    expect((await transfer({ to: { cpf: taker.cpf } })).json().code).toBe(
      'CHECKIN_IDENTITY_REQUIRED',
    );
    expect((await transfer({ to: { cpf: dfViewer.user.cpf } })).json()).toMatchObject({
      Error: 'Usuário não encontrado!',
      code: 'CHECKIN_EXAMINER_NOT_FOUND',
    });
    const busy = await newExaminer('Rita Ocupada');
    await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', busy.auth, {
      viewers: [{ cpf: busy.user.cpf }],
      schedulingLocal: 'SP.POSTO02',
    });
    const forRecord = { checkInId: id };
    const busyToken = (
      await confirmSecond(giver.auth, busy.user.email, DEFAULT_PASSWORD, forRecord)
    ).json().proctoringToken;
    expect((await transfer({ to: { proctoringToken: busyToken } })).json().code).toBe(
      'CHECKIN_ALREADY_OPEN',
    );
    // Someone not in the room gets no confirmation for it; one for opening a room does not transfer it.
    const stranger = await newExaminer('Sérgio Estranho');
    const refused = await confirmSecond(stranger.auth, taker.email, DEFAULT_PASSWORD, forRecord);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('CHECKIN_NOT_FOUND');
    const strangerToken = (await confirmSecond(stranger.auth, taker.email)).json().proctoringToken;
    expect(
      (await transfer({ to: { proctoringToken: strangerToken } }, stranger.auth)).json().code,
    ).toBe('PROCTORING_TOKEN_INVALID');

    const token = (await confirmSecond(giver.auth, taker.email, DEFAULT_PASSWORD, forRecord)).json()
      .proctoringToken;
    const done = await transfer({ to: { proctoringToken: token } });
    expect(done.statusCode, done.body).toBe(200);
    const record = done.json();
    expect(record.status).toBe('open');
    expect(
      record.viewers.map((v: { name: string; removedAt: string | null }) => [
        v.name,
        v.removedAt !== null,
      ]),
    ).toEqual([
      ['Paula Entrega', true],
      ['Quirino Recebe', false],
    ]);
    expect(record.history.at(-1)).toMatchObject({
      type: 'examiner_transfer',
      subject: 'Quirino Recebe',
      transferredFrom: 'Paula Entrega',
      actorName: 'Paula Entrega',
      admittedBy: 'proctoring',
    });
    const events = await selectRows<{ payload: { from: string; to: string } }>(
      t.database.db,
      sql`select payload from activity_log where type = 'examiner_transfered' and actor_id = ${giver.user.id}`,
    );
    expect(events).toEqual([
      {
        payload: { checkInId: id, from: giver.user.id, to: taker.id, admittedBy: 'proctoring' },
      },
    ]);
    // The giver is free again; the taker now holds the room.
    const again = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', giver.auth, {
      viewers: [{ cpf: giver.user.cpf }],
      schedulingLocal: 'SP.POSTO02',
    });
    expect(again.statusCode).toBe(201);
  });

  it('check-out closes the room; a closed record changes no more; an ADMIN closes one left open, with the reason', async () => {
    const one = await newExaminer('João Saída');
    const id = (
      await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
        viewers: [{ cpf: one.user.cpf }],
        schedulingLocal: post,
      })
    ).json().id;
    // Only the examiners of the room act on it.
    const stranger = await newExaminer('Estranho');
    const foreign = await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', stranger.auth, {
      checkInId: id,
    });
    expect(foreign.statusCode).toBe(404);
    const out = await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', one.auth, {
      checkInId: id,
    });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ status: 'closed' });
    expect(out.json().checkOutDate).not.toBeNull();
    expect(out.json().viewers[0]).toMatchObject({
      checkOutValidated: false,
      checkOutFaceUrl: null,
    });
    expect(out.json().viewers[0].checkOutDate).not.toBeNull();
    const again = await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', one.auth, {
      checkInId: id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('CHECKIN_CLOSED');
    // Free again: a new room opens.
    expect(
      (
        await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
          viewers: [{ cpf: one.user.cpf }],
          schedulingLocal: post,
        })
      ).statusCode,
    ).toBe(201);

    // Examiner 1 leaves first: the room's device still finds the room, and closes it later.
    const pair = await newExaminer('Natália Primeira');
    const partner = await seedUser(t.app, { role: 'VIEWER', unit: 'SP', name: 'Otávio Segundo' });
    const partnerToken = (
      await confirmSecond(pair.auth, partner.email, DEFAULT_PASSWORD, {
        schedulingLocal: 'SP.POSTO02',
      })
    ).json().proctoringToken;
    const pairId = (
      await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', pair.auth, {
        viewers: [{ cpf: pair.user.cpf }, { proctoringToken: partnerToken }],
        schedulingLocal: 'SP.POSTO02',
      })
    ).json().id as string;
    const pairRecord = (
      await inject('GET', `/api/SchedulingLocalCheckIn/findCheckInById/${pairId}`, pair.auth)
    ).json();
    const firstOut = await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', pair.auth, {
      checkInId: pairId,
      viewerId: pairRecord.viewers[0].id,
    });
    expect(firstOut.json().status).toBe('open');
    const stillThere = await inject(
      'GET',
      `/api/SchedulingLocalCheckIn/findCheckIn?viewerCpf=${pair.user.cpf}&schedulingLocal=SP.POSTO02`,
      pair.auth,
    );
    expect(stillThere.json()).toMatchObject({ id: pairId, status: 'open' });
    const lastOut = await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', pair.auth, {
      checkInId: pairId,
      viewerId: pairRecord.viewers[1].id,
    });
    expect(lastOut.json().status).toBe('closed');

    const left = await newExaminer('Larissa Esquecida');
    const leftId = (
      await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', left.auth, {
        viewers: [{ cpf: left.user.cpf }],
        schedulingLocal: post,
      })
    ).json().id;
    const short = await inject('POST', '/api/SchedulingLocalCheckIn/forceClose', admin.auth, {
      checkInId: leftId,
      reason: 'curto',
    });
    expect(short.statusCode).toBe(400);
    const closed = await inject('POST', '/api/SchedulingLocalCheckIn/forceClose', admin.auth, {
      checkInId: leftId,
      reason: 'Examinadora saiu sem registrar a saída; confirmado por telefone.',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      status: 'force_closed',
      closeReason: 'Examinadora saiu sem registrar a saída; confirmado por telefone.',
    });
    expect(closed.json().history.at(-1)).toMatchObject({
      type: 'force_close',
      actorName: admin.user.name,
      reason: 'Examinadora saiu sem registrar a saída; confirmado por telefone.',
    });
  });

  it('search: ADMIN and AUDITOR find records by post, examiner, status and period, page by page', async () => {
    const search = (query: string, auth = auditor.auth) =>
      inject('GET', `/api/SchedulingLocalCheckIn/searchCheckIn?${query}`, auth);
    const all = await search('pageSize=100');
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBeGreaterThanOrEqual(6);
    const byName = await search('examiner=larissa');
    expect(
      byName
        .json()
        .items.map((item: { viewers: Array<{ name: string }> }) => item.viewers[0]?.name),
    ).toEqual(['Larissa Esquecida']);
    const byCpf = await search(`examiner=${first.user.cpf}`);
    expect(byCpf.json().total).toBe(0);
    const open = await search('status=open&pageSize=100');
    expect(open.json().items.every((item: { status: string }) => item.status === 'open')).toBe(
      true,
    );
    const closed = await search('status=closed&pageSize=100');
    expect(
      closed
        .json()
        .items.map((item: { status: string }) => item.status)
        .sort(),
    ).toEqual(['closed', 'closed', 'force_closed']);
    const otherPost = await search('schedulingLocal=SP.POSTO02');
    expect(
      otherPost
        .json()
        .items.every((item: { schedulingLocal: string }) => item.schedulingLocal === 'SP.POSTO02'),
    ).toBe(true);
    const today = dayInZone(new Date());
    expect((await search(`startDate=${today}&endDate=${today}&pageSize=100`)).json().total).toBe(
      all.json().total,
    );
    expect(
      (await search(`startDate=${addDays(today, -3)}&endDate=${addDays(today, -1)}`)).json().total,
    ).toBe(0);
    const paged = await search('pageSize=2&page=2');
    expect(paged.json()).toMatchObject({ page: 2, pageSize: 2 });
    expect(paged.json().items).toHaveLength(2);
    const badPeriod = await search('startDate=ontem&endDate=hoje');
    expect(badPeriod.statusCode).toBe(400);
    // Examiners do not search.
    expect((await search('', first.auth)).statusCode).toBe(403);
  });

  it('tenant isolation: another unit can neither see nor join nor change a record', async () => {
    const one = await newExaminer('Marcos Isolado');
    const id = (
      await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
        viewers: [{ cpf: one.user.cpf }],
        schedulingLocal: post,
      })
    ).json().id;
    const dfAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    for (const [method, url, auth, payload] of [
      ['GET', `/api/SchedulingLocalCheckIn/findCheckInById/${id}`, dfViewer.auth, undefined],
      ['GET', `/api/SchedulingLocalCheckIn/findCheckInById/${id}`, dfAdmin.auth, undefined],
      ['GET', `/api/SchedulingLocalCheckIn/exams?checkInId=${id}`, dfViewer.auth, undefined],
      [
        'GET',
        `/api/SchedulingLocalCheckIn/findCheckIn?viewerCpf=${one.user.cpf}&schedulingLocal=${post}`,
        dfViewer.auth,
        undefined,
      ],
      [
        'PUT',
        `/api/SchedulingLocalCheckIn/update-checkIn/${id}`,
        dfViewer.auth,
        { removeViewerId: id },
      ],
      ['POST', '/api/SchedulingLocalCheckIn/checkOut', dfViewer.auth, { checkInId: id }],
      [
        'POST',
        '/api/SchedulingLocalCheckIn/forceClose',
        dfAdmin.auth,
        { checkInId: id, reason: 'Tentativa de outra unidade.' },
      ],
    ] as const) {
      const response = await inject(method, url, auth, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    // Nor name an examiner of the record for a face check.
    const viewerId = (
      await inject('GET', `/api/SchedulingLocalCheckIn/findCheckInById/${id}`, one.auth)
    ).json().viewers[0].id;
    const byRecord = await inject('POST', '/api/Auth/biometric-viewer-checkin', dfViewer.auth, {
      checkInViewerId: viewerId,
      image: 'A'.repeat(64),
      frames: ['A'.repeat(64)],
    });
    expect(byRecord.statusCode).toBe(404);
    expect(byRecord.json().code).toBe('CHECKIN_VIEWER_NOT_FOUND');
    const dfSearch = await inject(
      'GET',
      '/api/SchedulingLocalCheckIn/searchCheckIn?pageSize=100',
      dfAdmin.auth,
    );
    expect(dfSearch.json().items.map((item: { id: string }) => item.id)).not.toContain(id);
    // A DF examiner cannot name an SP examiner, nor an SP post.
    const join = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', dfViewer.auth, {
      viewers: [{ cpf: dfViewer.user.cpf }, { cpf: one.user.cpf }],
      schedulingLocal: 'DF.QUALQUER',
    });
    expect(join.statusCode).toBe(404);
    const named = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', first.auth, {
      viewers: [{ cpf: first.user.cpf }, { cpf: dfViewer.user.cpf }],
      schedulingLocal: post,
    });
    expect(named.json()).toMatchObject({
      Error: 'Usuário não encontrado!',
      code: 'CHECKIN_EXAMINER_NOT_FOUND',
    });
    // The record is as it was.
    const record = await inject(
      'GET',
      `/api/SchedulingLocalCheckIn/findCheckInById/${id}`,
      one.auth,
    );
    expect(record.json()).toMatchObject({ status: 'open' });
    expect(record.json().history).toHaveLength(2);
  });

  it('in a unit with face validation, a check-in without a face verification is refused', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/SchedulingLocal',
      headers: (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' })).auth,
      payload: { identifier: 'DF.POSTO09', description: 'Posto Asa Sul' },
    });
    const response = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', dfViewer.auth, {
      viewers: [{ cpf: dfViewer.user.cpf }],
      schedulingLocal: 'DF.POSTO09',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('CHECKIN_FACE_REQUIRED');
    const forged = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', dfViewer.auth, {
      viewers: [{ cpf: dfViewer.user.cpf, verificationId: '6f1c1f7e-2a4b-4c3d-9e8f-7a6b5c4d3e2f' }],
      schedulingLocal: 'DF.POSTO09',
    });
    expect(forged.statusCode).toBe(422);
    expect(forged.json().code).toBe('CHECKIN_FACE_INVALID');
  });
});
