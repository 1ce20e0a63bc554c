/**
 * `GET myOpenCheckIns`, on both database tiers: the signed-in examiner's open
 * records come from the server after a logout and a new sign-in (nothing
 * about the post is sent), follow check-outs, removals, transfers and the
 * close, include a record opened for someone else, are examiners' only, and
 * never cross units. Also the refusal of an examiner already in a room, which
 * names the room, the post and since when.
 */
import { PERIOD_TIME_ZONE } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, seedSignedIn, seedUser, signInAs } from '../../../test/identity';

type Auth = { authorization: string };
type Mine = Array<{
  record: {
    id: string;
    status: string;
    schedulingLocal: string;
    examRoom: { name: string } | null;
    viewers: Array<{ id: string; name: string }>;
  };
  viewerId: string | null;
  inRoom: boolean;
}>;

describe('the signed-in examiner’s open check-ins', () => {
  let t: TestApp;
  let admin: Auth;
  let roomId = '';
  const post = 'SP.POSTO01';

  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' })).auth;
    for (const [identifier, description] of [
      [post, 'Posto Sé'],
      ['SP.POSTO02', 'Posto Lapa'],
    ] as const) {
      const created = await inject('POST', '/api/SchedulingLocal', admin, {
        identifier,
        description,
      });
      expect(created.statusCode).toBe(201);
    }
    const room = await inject('POST', '/api/ExamRoom', admin, {
      schedulingLocal: 'SP.POSTO02',
      code: 'S1',
      name: 'Sala Azul',
      stations: [{ code: 'Estação 01', position: 1 }],
    });
    expect(room.statusCode, room.body).toBe(201);
    roomId = room.json().id;
  }, 60_000);
  afterAll(() => t.close());

  function inject(method: 'GET' | 'POST' | 'PUT', url: string, auth?: Auth, payload?: object) {
    return t.app.inject({ method, url, headers: auth ?? {}, ...(payload ? { payload } : {}) });
  }
  const mine = async (auth: Auth) => {
    const response = await inject('GET', '/api/SchedulingLocalCheckIn/myOpenCheckIns', auth);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Mine;
  };
  const examiner = (name: string) => seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP', name });
  const open = async (auth: Auth, viewers: object[], local = post, examRoomId?: string) => {
    const response = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', auth, {
      viewers,
      schedulingLocal: local,
      ...(examRoomId ? { examRoomId } : {}),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  const confirmSecond = async (auth: Auth, email: string, target: object) =>
    (
      await inject('POST', '/api/Auth/viewer-checkin', auth, {
        email,
        password: DEFAULT_PASSWORD,
        ...target,
      })
    ).json().proctoringToken as string;

  it('survives a logout and a new sign-in: the record comes from the server, for both examiners', async () => {
    const one = await examiner('Ana Primeira');
    const two = await seedUser(t.app, { role: 'ROOM_INSPECTOR', unit: 'SP', name: 'Bia Segunda' });
    expect(await mine(one.auth)).toEqual([]);
    const token = await confirmSecond(one.auth, two.email, { schedulingLocal: post });
    const id = await open(one.auth, [{ cpf: one.user.cpf }, { proctoringToken: token }]);

    // The session that opened the room ends; a new one (another device) finds it.
    expect((await inject('POST', '/api/Auth/logout', one.auth)).statusCode).toBeLessThan(300);
    expect(
      (await inject('GET', '/api/SchedulingLocalCheckIn/myOpenCheckIns', one.auth)).statusCode,
    ).toBe(401);
    const again = { authorization: `Bearer ${await signInAs(t.app, one.user.email)}` };
    const found = await mine(again);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ inRoom: true, record: { id, status: 'open' } });
    const ownEntry = found[0]!.record.viewers.find((viewer) => viewer.name === 'Ana Primeira');
    expect(found[0]!.viewerId).toBe(ownEntry?.id);

    // Examiner 2 finds the same record in a session of their own.
    const second = { authorization: `Bearer ${await signInAs(t.app, two.email)}` };
    expect((await mine(second)).map((entry) => [entry.record.id, entry.inRoom])).toEqual([
      [id, true],
    ]);

    // Examiner 1 leaves first: the record stays theirs (the room's device lets examiner 2 out).
    const left = await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', again, {
      checkInId: id,
      viewerId: ownEntry?.id,
    });
    expect(left.statusCode, left.body).toBe(200);
    expect((await mine(again)).map((entry) => [entry.record.id, entry.inRoom])).toEqual([
      [id, false],
    ]);
    // Out of it, examiner 1 opens another room: the one they are in comes first.
    const newer = await open(again, [{ cpf: one.user.cpf }], 'SP.POSTO02', roomId);
    expect((await mine(again)).map((entry) => [entry.record.id, entry.inRoom])).toEqual([
      [newer, true],
      [id, false],
    ]);
    // The last one leaves: the room is closed and nobody's any more.
    const closed = await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', second, {
      checkInId: id,
    });
    expect(closed.json().status).toBe('closed');
    expect((await mine(again)).map((entry) => entry.record.id)).toEqual([newer]);
    expect(await mine(second)).toEqual([]);
    await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', again, { checkInId: newer });
    expect(await mine(again)).toEqual([]);
  });

  it('a removed examiner and one who handed the room over are out of it', async () => {
    const giver = await examiner('Caio Entrega');
    const taker = await seedUser(t.app, { role: 'VIEWER', unit: 'SP', name: 'Davi Recebe' });
    const id = await open(giver.auth, [{ cpf: giver.user.cpf }]);
    const [entry] = await mine(giver.auth);
    const token = await confirmSecond(giver.auth, taker.email, { checkInId: id });
    const transferred = await inject('POST', '/api/SchedulingLocalCheckIn/transfer', giver.auth, {
      checkInId: id,
      fromViewerId: entry!.viewerId,
      to: { proctoringToken: token },
    });
    expect(transferred.statusCode, transferred.body).toBe(200);
    expect(await mine(giver.auth)).toEqual([]);
    const takerAuth = { authorization: `Bearer ${await signInAs(t.app, taker.email)}` };
    expect((await mine(takerAuth)).map((found) => found.record.id)).toEqual([id]);

    // The giver opens another room: that one, where they are in the room, is theirs.
    const newer = await open(giver.auth, [{ cpf: giver.user.cpf }], 'SP.POSTO02', roomId);
    expect((await mine(giver.auth)).map((found) => [found.record.id, found.inRoom])).toEqual([
      [newer, true],
    ]);
    expect((await mine(giver.auth))[0]!.record.examRoom?.name).toBe('Sala Azul');

    // Added, then removed by the other examiner: no longer theirs.
    const extraToken = await confirmSecond(takerAuth, giver.user.email, { checkInId: id });
    const busy = await inject(
      'PUT',
      `/api/SchedulingLocalCheckIn/update-checkIn/${id}`,
      takerAuth,
      {
        add: { proctoringToken: extraToken },
      },
    );
    expect(busy.json().code).toBe('CHECKIN_ALREADY_OPEN');
    await inject('POST', '/api/SchedulingLocalCheckIn/checkOut', giver.auth, { checkInId: newer });
    const addToken = await confirmSecond(takerAuth, giver.user.email, { checkInId: id });
    const added = await inject(
      'PUT',
      `/api/SchedulingLocalCheckIn/update-checkIn/${id}`,
      takerAuth,
      {
        add: { proctoringToken: addToken },
      },
    );
    expect(added.statusCode, added.body).toBe(200);
    expect((await mine(giver.auth)).map((found) => [found.record.id, found.inRoom])).toEqual([
      [id, true],
    ]);
    const giverEntry = (await mine(giver.auth))[0]!.viewerId;
    const removed = await inject(
      'PUT',
      `/api/SchedulingLocalCheckIn/update-checkIn/${id}`,
      takerAuth,
      { removeViewerId: giverEntry },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await mine(giver.auth)).toEqual([]);
  });

  it('a record opened for the separate viewer identity is the opener’s, without an entry of theirs', async () => {
    const present = await examiner('Elisa Presente');
    const opener = await examiner('Fábio Dispositivo');
    const id = await open(present.auth, [{ cpf: present.user.cpf }]);
    // As when the device's user opened the room for examiner 1 named by `cpfViewer`.
    await t.database.db.execute(
      sql`update check_ins set opened_by = ${opener.user.id} where id = ${id}`,
    );
    expect(await mine(opener.auth)).toMatchObject([
      { record: { id }, viewerId: null, inRoom: false },
    ]);
    expect((await mine(present.auth)).map((found) => found.record.id)).toEqual([id]);
  });

  it('examiners only, and never another unit’s records', async () => {
    const sp = await examiner('Gil Paulista');
    const id = await open(sp.auth, [{ cpf: sp.user.cpf }]);
    const df = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    expect(await mine(df.auth)).toEqual([]);
    // Even a record of another unit written in the DF examiner's name stays out of reach.
    await t.database.db.execute(
      sql`update check_ins set opened_by = ${df.user.id} where id = ${id}`,
    );
    expect(await mine(df.auth)).toEqual([]);
    for (const role of ['ADMIN', 'auditor'] as const) {
      const other = await seedSignedIn(t.app, { role, unit: 'SP' });
      const refused = await inject('GET', '/api/SchedulingLocalCheckIn/myOpenCheckIns', other.auth);
      expect(refused.statusCode).toBe(403);
    }
    const anonymous = await inject('GET', '/api/SchedulingLocalCheckIn/myOpenCheckIns');
    expect(anonymous.statusCode).toBe(401);
  });

  it('an examiner already in a room is told which room, which post and since when', async () => {
    const one = await examiner('Helena Ocupada');
    const id = await open(one.auth, [{ cpf: one.user.cpf }], 'SP.POSTO02', roomId);
    const again = await inject('POST', '/api/SchedulingLocalCheckIn/checkIn', one.auth, {
      viewers: [{ cpf: one.user.cpf }],
      schedulingLocal: post,
    });
    expect(again.statusCode).toBe(409);
    const body = again.json();
    expect(body).toMatchObject({ code: 'CHECKIN_ALREADY_OPEN', id });
    const at = new Date(body.checkInDate);
    const time = at.toLocaleTimeString('pt-BR', {
      timeZone: PERIOD_TIME_ZONE,
      hour: '2-digit',
      minute: '2-digit',
    });
    const day = at.toLocaleDateString('pt-BR', { timeZone: PERIOD_TIME_ZONE });
    expect(body.Error).toBe(
      `Helena Ocupada já tem uma entrada aberta em Sala Azul (S1), no posto Posto Lapa (SP.POSTO02), desde ${time} de ${day}. Registre a saída antes de abrir outra.`,
    );
    expect(body.Error).not.toContain(id);
  });
});
