/**
 * Examiner 2's confirmation (`proctoringToken` of `api/Auth/viewer-checkin`)
 * is a token for one later step: used once, by the admission it was asked
 * for (opening a room at a post, or joining / receiving an open record), and
 * never again. After examiner 2 was removed, the same token does not put
 * them back, nor opens a room at another post; a token asked for one post or
 * record is refused at another, before and at the admission; a refused
 * admission does not spend it; another session of examiner 1 does not take
 * it. In a unit without face validation (SP).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { buildTestApp, engineName, type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, seedSignedIn, seedUser, signInAs } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Target = { schedulingLocal?: string; checkInId?: string };

const POST = 'SP.POSTO11';
const OTHER_POST = 'SP.POSTO12';

describe(`examiner 2's confirmation is single-use and bound to what it was asked for (${engineName})`, () => {
  let t: TestApp;
  let admin: Signed;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    for (const identifier of [POST, OTHER_POST]) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/SchedulingLocal',
        headers: admin.auth,
        payload: { identifier, description: `Posto ${identifier}` },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
  }, 60_000);
  afterAll(() => t.close());

  const call = (method: 'POST' | 'PUT', url: string, who: Signed, payload: object) =>
    t.app.inject({ method, url, headers: who.auth, payload });
  const confirm = async (who: Signed, email: string, target: Target) => {
    const answer = await call('POST', '/api/Auth/viewer-checkin', who, {
      email,
      password: DEFAULT_PASSWORD,
      ...target,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().proctoringToken as string;
  };
  const open = (who: Signed, post: string, token?: string) =>
    call('POST', '/api/SchedulingLocalCheckIn/checkIn', who, {
      viewers: [{ cpf: who.user.cpf }, ...(token ? [{ proctoringToken: token }] : [])],
      schedulingLocal: post,
    });
  const update = (who: Signed, id: string, body: object) =>
    call('PUT', `/api/SchedulingLocalCheckIn/update-checkIn/${id}`, who, body);
  const checkOut = (who: Signed, id: string) =>
    call('POST', '/api/SchedulingLocalCheckIn/checkOut', who, { checkInId: id });
  const expectInvalid = (answer: { statusCode: number; json: () => Record<string, unknown> }) => {
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({
      code: 'PROCTORING_TOKEN_INVALID',
      Error:
        'A confirmação do examinador 2 expirou ou não é válida. Faça login com o examinador 2 novamente.',
    });
  };
  /** The face steps before the admission (challenge, capture) name examiner 2 by the token too. */
  const challenge = (who: Signed, token: string) =>
    call('POST', '/api/BiopassID/Challenge', who, { purpose: 'check-in', proctoringToken: token });

  it('used once: after examiner 2 was removed, the same token neither puts them back nor opens a room at another post', async () => {
    const one = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP', name: 'Examinadora Um' });
    const two = await seedUser(t.app, { role: 'VIEWER', unit: 'SP', name: 'Examinador Dois' });
    const token = await confirm(one, two.email, { schedulingLocal: POST });
    const opened = await open(one, POST, token);
    expect(opened.statusCode, opened.body).toBe(201);
    const id = opened.json().id as string;
    const [viewer] = await selectRows<{ id: string }>(
      t.database.db,
      sql`select id from check_in_viewers where check_in_id = ${id} and user_id = ${two.id}`,
    );
    expect((await update(one, id, { removeViewerId: viewer!.id })).statusCode).toBe(200);

    // The same token, again: not into the same record...
    expectInvalid(await update(one, id, { add: { proctoringToken: token } }));
    // ...nor, once examiner 1 has left, into a room at another post.
    expect((await checkOut(one, id)).json().status).toBe('closed');
    expectInvalid(await open(one, OTHER_POST, token));
    // Nor does it name examiner 2 for a face check any more.
    expectInvalid(await challenge(one, token));
    // Examiner 2 was admitted once, and nothing else was opened with the token.
    const rows = await selectRows<{ check_in_id: string }>(
      t.database.db,
      sql`select check_in_id from check_in_viewers where user_id = ${two.id}`,
    );
    expect(rows).toEqual([{ check_in_id: id }]);
    const [used] = await selectRows<{ used_for: string; used: boolean }>(
      t.database.db,
      sql`select used_for, used_at is not null as used from proctoring_tokens where person_id = ${two.id}`,
    );
    expect(used).toEqual({ used_for: id, used: true });
  });

  it('bound to its post and record: refused anywhere else, before and at the admission, and not spent by a refusal', async () => {
    const one = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP', name: 'Fiscal Um' });
    const two = await seedUser(t.app, { role: 'VIEWER', unit: 'SP', name: 'Fiscal Dois' });
    const forPost = await confirm(one, two.email, { schedulingLocal: POST });
    // The face capture at another post does not take it.
    const capture = await call('POST', '/api/Auth/biometric-viewer-checkin', one, {
      proctoringToken: forPost,
      image: 'A'.repeat(64),
      uf: 'SP',
      local: OTHER_POST,
    });
    expectInvalid(capture);
    // Opening at another post: refused, and the token is still good where it was asked for.
    expectInvalid(await open(one, OTHER_POST, forPost));
    expect((await challenge(one, forPost)).statusCode).toBe(201);
    const opened = await open(one, POST, forPost);
    expect(opened.statusCode, opened.body).toBe(201);
    const id = opened.json().id as string;

    // One asked for opening a room joins no record; one asked for a record opens no room
    // and joins no other record.
    const other = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP', name: 'Outra Sala' });
    const otherId = (await open(other, OTHER_POST)).json().id as string;
    const third = await seedUser(t.app, { role: 'VIEWER', unit: 'SP', name: 'Terceira' });
    const forOpening = await confirm(other, third.email, { schedulingLocal: OTHER_POST });
    expectInvalid(await update(other, otherId, { add: { proctoringToken: forOpening } }));
    const forOtherRecord = await confirm(other, third.email, { checkInId: otherId });
    expectInvalid(await open(other, OTHER_POST, forOtherRecord));
    const forMine = await confirm(one, third.email, { checkInId: id });
    expectInvalid(await update(one, otherId, { add: { proctoringToken: forMine } }));
    // A refused admission spends nothing: the record is full, then someone leaves.
    const full = await update(one, id, { add: { proctoringToken: forMine } });
    expect(full.json().code).toBe('CHECKIN_TOO_MANY_VIEWERS');
    const [twoViewer] = await selectRows<{ id: string }>(
      t.database.db,
      sql`select id from check_in_viewers where check_in_id = ${id} and user_id = ${two.id}`,
    );
    expect((await update(one, id, { removeViewerId: twoViewer!.id })).statusCode).toBe(200);
    const joined = await update(one, id, { add: { proctoringToken: forMine } });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().viewers.at(-1)).toMatchObject({
      name: 'Terceira',
      admittedBy: 'proctoring',
    });
    // The token asked for the other record is still unused, and still only for it.
    const [left] = await selectRows<{ used: boolean }>(
      t.database.db,
      sql`select used_at is not null as used from proctoring_tokens
          where check_in_id = ${otherId} and person_id = ${third.id}`,
    );
    expect(left).toEqual({ used: false });
  });

  it('asked for what examiner 1 may name: an active post, or an open record they are in', async () => {
    const one = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP' });
    const two = await seedUser(t.app, { role: 'VIEWER', unit: 'SP' });
    const ask = (target: Target) =>
      call('POST', '/api/Auth/viewer-checkin', one, {
        email: two.email,
        password: DEFAULT_PASSWORD,
        ...target,
      });
    const nothing = await ask({});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().code).toBe('VALIDATION_ERROR');
    expect((await ask({ schedulingLocal: 'SP.NAOEXISTE' })).json().code).toBe(
      'CHECKIN_LOCAL_NOT_FOUND',
    );
    const stranger = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP' });
    const theirs = (await open(stranger, OTHER_POST)).json().id as string;
    const notMine = await ask({ checkInId: theirs });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().code).toBe('CHECKIN_NOT_FOUND');
    const mine = (await open(one, POST)).json().id as string;
    expect((await ask({ checkInId: mine, schedulingLocal: OTHER_POST })).json().code).toBe(
      'CHECKIN_NOT_FOUND',
    );
    expect((await checkOut(one, mine)).json().status).toBe('closed');
    expect((await ask({ checkInId: mine })).json().code).toBe('CHECKIN_CLOSED');
    // Nothing was kept for the refused requests.
    const [kept] = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from proctoring_tokens where issued_to = ${one.user.id}`,
    );
    expect(kept!.n).toBe(0);
  });

  it('only in the session it was given in, and within its lifetime; only its hash is kept', async () => {
    const one = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP' });
    const two = await seedUser(t.app, { role: 'VIEWER', unit: 'SP' });
    const token = await confirm(one, two.email, { schedulingLocal: POST });
    // Examiner 1 signed in elsewhere (another session): that session does not take it.
    const otherSession = await signInAs(t.app, one.user.email);
    expectInvalid(
      await challenge({ ...one, auth: { authorization: `Bearer ${otherSession}` } }, token),
    );
    expect((await challenge(one, token)).statusCode).toBe(201);
    const [row] = await selectRows<{ token_hash: string }>(
      t.database.db,
      sql`select token_hash from proctoring_tokens where issued_to = ${one.user.id}`,
    );
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.token_hash).not.toContain(token);
    await t.database.db.execute(
      sql`update proctoring_tokens set expires_at = now() - interval '1 second'
          where issued_to = ${one.user.id}`,
    );
    expectInvalid(await challenge(one, token));
    expectInvalid(await open(one, POST, token));
  });
});
