/**
 * The second factor of a password sign-in: an authenticator app, a passkey
 * and recovery codes; the `multi-factor-auth-required` step with its ticket
 * (single use, five wrong answers, throttled like a password); enrolment at
 * sign-in for the roles that require a factor; the person's own management
 * of factors; and the code as a re-authentication.
 */
import { REAUTH_WINDOW_MS, type Role } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { totpCode } from '../../lib/totp';
import { buildTestApp, testConfig, type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, lastMailTo, seedSignedIn, seedUser } from '../../../test/identity';
import { addTotp, nextTotpCode, passwordStep, softPasskey } from '../../../test/second-factor';

describe('second factor', () => {
  let t: TestApp;
  /** The same product where ADMIN must have a second factor (as production's default). */
  let strict: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ config: { sessionCacheMs: 0 } });
    const base = testConfig();
    strict = await buildTestApp({
      config: {
        sessionCacheMs: 0,
        secondFactor: { ...base.secondFactor, requiredRoles: ['ADMIN'] },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await strict.close();
  });

  const post = (app: TestApp, url: string, payload: object, headers = {}) =>
    app.app.inject({ method: 'POST', url, payload, headers });
  const sessionsOf = async (app: TestApp, userId: string) =>
    (
      await selectRows<{ n: number }>(
        app.database.db,
        sql`select count(*)::int as n from sessions where user_id = ${userId}`,
      )
    )[0]!.n;
  const me = (app: TestApp, token: string) =>
    app.app.inject({
      method: 'GET',
      url: '/api/Auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
  const signedInWith = async (role: Role = 'auditor') => {
    const who = await seedSignedIn(t.app, { role, unit: 'DF' });
    return { ...who, ...(await addTotp(t.app, who.auth)) };
  };

  it('an app code finishes a password sign-in; no session opens before it, and a code works once', async () => {
    const who = await signedInWith();
    expect(who.recoveryCodes).toHaveLength(10);
    // The owner hears of it by e-mail.
    const notice = await lastMailTo(t.app, who.user.email);
    expect(notice?.subject).toBe('Alteração na segurança da sua conta');
    expect(notice?.text).toContain('Aplicativo autenticador "Celular" foi cadastrado');
    const before = await sessionsOf(t, who.user.id);

    const step = await passwordStep(t.app, who.user.email);
    expect(step).toMatchObject({ status: 401, code: 'multi-factor-auth-required' });
    expect(step.methods).toEqual(['totp', 'recovery']);
    expect(await sessionsOf(t, who.user.id)).toBe(before);

    const wrong = await post(t, '/api/Auth/mfa/verify', {
      ticket: step.ticket,
      method: 'totp',
      code: '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'mfa-invalid-code' });

    const code = nextTotpCode(who.secret);
    const done = await post(t, '/api/Auth/mfa/verify', {
      ticket: step.ticket,
      method: 'totp',
      code,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.headers['set-cookie']).toContain('exame_device=');
    expect((await me(t, (done.json() as { token: string }).token)).statusCode).toBe(200);

    // The ticket is spent, and the same code does not open a second session.
    const again = await post(t, '/api/Auth/mfa/verify', {
      ticket: step.ticket,
      method: 'totp',
      code,
    });
    expect(again.json()).toMatchObject({ code: 'mfa-ticket-invalid' });
    const next = await passwordStep(t.app, who.user.email);
    const replay = await post(t, '/api/Auth/mfa/verify', {
      ticket: next.ticket,
      method: 'totp',
      code,
    });
    expect(replay.json()).toMatchObject({ code: 'mfa-invalid-code' });
  });

  it('a recovery code works once (whatever its case and dashes) and is recorded', async () => {
    const who = await signedInWith();
    const [first] = who.recoveryCodes;
    const step = await passwordStep(t.app, who.user.email);
    const typed = first!.replace('-', ' ').toUpperCase();
    const done = await post(t, '/api/Auth/mfa/verify', {
      ticket: step.ticket,
      method: 'recovery',
      code: typed,
    });
    expect(done.statusCode, done.body).toBe(200);

    const next = await passwordStep(t.app, who.user.email);
    const reused = await post(t, '/api/Auth/mfa/verify', {
      ticket: next.ticket,
      method: 'recovery',
      code: first,
    });
    expect(reused.json()).toMatchObject({ code: 'mfa-invalid-code' });
    const events = await selectRows<{ type: string; payload: { left: number } }>(
      t.database.db,
      sql`select type, payload from activity_log where actor_id = ${who.user.id} and type like 'mfa_%' order by created_at`,
    );
    expect(events.map((event) => event.type)).toEqual(['mfa_add', 'mfa_recovery_used']);
    expect(events[1]!.payload.left).toBe(9);
  });

  it('five wrong answers spend the ticket, and they count against the account like wrong passwords', async () => {
    const who = await signedInWith();
    const step = await passwordStep(t.app, who.user.email);
    const answers = [];
    for (let i = 0; i < 5; i += 1) {
      const wrong = await post(t, '/api/Auth/mfa/verify', {
        ticket: step.ticket,
        method: 'totp',
        code: '123456',
      });
      answers.push((wrong.json() as { code: string }).code);
    }
    expect(answers).toEqual([...Array(4).fill('mfa-invalid-code'), 'mfa-ticket-invalid']);
    const right = await post(t, '/api/Auth/mfa/verify', {
      ticket: step.ticket,
      method: 'totp',
      code: nextTotpCode(who.secret),
    });
    expect(right.json()).toMatchObject({ code: 'mfa-ticket-invalid' });
    // The account now waits, as after five wrong passwords.
    const blocked = await post(t, '/api/Auth', {
      email: who.user.email,
      password: DEFAULT_PASSWORD,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'login-blocked' });
  });

  it('a ticket serves only its own step, only while it lasts, and only for an enabled account', async () => {
    const who = await signedInWith();
    const step = await passwordStep(t.app, who.user.email);
    const enrol = await post(t, '/api/Auth/mfa/enrol/totp', { ticket: step.ticket });
    expect(enrol.json()).toMatchObject({ code: 'mfa-ticket-invalid' });
    const forged = await post(t, '/api/Auth/mfa/verify', {
      ticket: 'x'.repeat(43),
      method: 'totp',
      code: nextTotpCode(who.secret),
    });
    expect(forged.json()).toMatchObject({ code: 'mfa-ticket-invalid' });

    await t.database.db.execute(
      sql`update mfa_tickets set expires_at = now() - interval '1 second' where user_id = ${who.user.id}`,
    );
    const late = await post(t, '/api/Auth/mfa/verify', {
      ticket: step.ticket,
      method: 'totp',
      code: nextTotpCode(who.secret),
    });
    expect(late.json()).toMatchObject({ code: 'mfa-ticket-invalid' });

    const fresh = await passwordStep(t.app, who.user.email);
    await t.database.db.execute(
      sql`update users set register_status = 'disabled' where id = ${who.user.id}`,
    );
    const disabled = await post(t, '/api/Auth/mfa/verify', {
      ticket: fresh.ticket,
      method: 'totp',
      code: nextTotpCode(who.secret),
    });
    expect(disabled.statusCode).toBe(401);
    expect(disabled.json()).toMatchObject({ code: 'mfa-ticket-invalid' });
  });

  it('a passkey is added, then signs in; a tampered or replayed answer is refused', async () => {
    const who = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const origin = t.app.identity.config.secondFactor.origin;
    const key = softPasskey(origin);
    const options = (await post(t, '/api/Auth/factors/passkey/options', {}, who.auth)).json();
    const added = await post(
      t,
      '/api/Auth/factors',
      { method: 'passkey', credential: key.register(options), label: 'Chave USB' },
      who.auth,
    );
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ factor: { kind: 'passkey', label: 'Chave USB' } });
    expect((added.json() as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);

    const step = await passwordStep(t.app, who.user.email);
    expect(step.methods).toEqual(['passkey', 'recovery']);
    const signIn = (
      await post(t, '/api/Auth/mfa/passkey/options', { ticket: step.ticket })
    ).json() as { challenge: string };

    // Another key answering, and the right key signing another challenge: refused.
    const stranger = softPasskey(origin);
    const foreign = { ...stranger.assert(signIn), id: key.id, rawId: key.id };
    const tampered = await post(t, '/api/Auth/mfa/passkey', {
      ticket: step.ticket,
      credential: foreign,
    });
    expect(tampered.json()).toMatchObject({ code: 'passkey-failed' });
    const again = (
      await post(t, '/api/Auth/mfa/passkey/options', { ticket: step.ticket })
    ).json() as { challenge: string };
    const otherChallenge = key.assert({ ...again, challenge: signIn.challenge });
    const wrongChallenge = await post(t, '/api/Auth/mfa/passkey', {
      ticket: step.ticket,
      credential: otherChallenge,
    });
    expect(wrongChallenge.json()).toMatchObject({ code: 'passkey-failed' });

    const fresh = (
      await post(t, '/api/Auth/mfa/passkey/options', { ticket: step.ticket })
    ).json() as { challenge: string };
    const answer = key.assert(fresh);
    const done = await post(t, '/api/Auth/mfa/passkey', {
      ticket: step.ticket,
      credential: answer,
    });
    expect(done.statusCode, done.body).toBe(200);

    // The same answer again, on a new sign-in: its challenge is not this one's.
    const next = await passwordStep(t.app, who.user.email);
    await post(t, '/api/Auth/mfa/passkey/options', { ticket: next.ticket });
    const replayed = await post(t, '/api/Auth/mfa/passkey', {
      ticket: next.ticket,
      credential: answer,
    });
    expect(replayed.json()).toMatchObject({ code: 'passkey-failed' });
  });

  it('a role that requires a factor enrols one at the next sign-in, and cannot remove its last', async () => {
    const admin = await seedUser(strict.app, { role: 'ADMIN', unit: 'DF' });
    const viewer = await seedUser(strict.app, { role: 'VIEWER', unit: 'DF' });
    const direct = await post(strict, '/api/Auth', {
      email: viewer.email,
      password: DEFAULT_PASSWORD,
    });
    expect(direct.statusCode).toBe(200);

    const step = await passwordStep(strict.app, admin.email);
    expect(step).toMatchObject({ code: 'multi-factor-enrolment-required', methods: [] });
    expect(await sessionsOf(strict, admin.id)).toBe(0);
    // An enrolment ticket does not sign in by code.
    const shortcut = await post(strict, '/api/Auth/mfa/verify', {
      ticket: step.ticket,
      method: 'recovery',
      code: 'aaaaa-aaaaa',
    });
    expect(shortcut.json()).toMatchObject({ code: 'mfa-ticket-invalid' });

    const again = await passwordStep(strict.app, admin.email);
    const early = await post(strict, '/api/Auth/mfa/enrol', {
      ticket: again.ticket,
      method: 'totp',
      code: '123456',
    });
    expect(early.json()).toMatchObject({ code: 'mfa-setup-missing' });
    const setup = (
      await post(strict, '/api/Auth/mfa/enrol/totp', { ticket: again.ticket })
    ).json() as {
      secret: string;
      otpauthUri: string;
    };
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const enrolled = await post(strict, '/api/Auth/mfa/enrol', {
      ticket: again.ticket,
      method: 'totp',
      code: totpCode(setup.secret, new Date()),
      label: 'Celular da coordenação',
    });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    const body = enrolled.json() as { token: string; recoveryCodes: string[] };
    expect(body.recoveryCodes).toHaveLength(10);
    const auth = { authorization: `Bearer ${body.token}` };

    const status = await strict.app.inject({
      method: 'GET',
      url: '/api/Auth/factors',
      headers: auth,
    });
    expect(status.json()).toMatchObject({
      required: true,
      recoveryCodesLeft: 10,
      factors: [{ kind: 'totp', label: 'Celular da coordenação' }],
    });
    const [factor] = (status.json() as { factors: { id: string }[] }).factors;
    const removal = await strict.app.inject({
      method: 'DELETE',
      url: `/api/Auth/factors/${factor!.id}`,
      headers: auth,
    });
    expect(removal.statusCode).toBe(409);
    expect(removal.json()).toMatchObject({ code: 'mfa-last-factor' });

    const next = await passwordStep(strict.app, admin.email);
    expect(next).toMatchObject({
      code: 'multi-factor-auth-required',
      methods: ['totp', 'recovery'],
    });
  });

  it('removing a factor and new recovery codes ask for a recent proof; the code itself is such a proof', async () => {
    const who = await signedInWith();
    await t.database.db.execute(
      sql`update sessions set proven_at = ${new Date(Date.now() - REAUTH_WINDOW_MS - 1000)} where user_id = ${who.user.id}`,
    );
    const codes = await post(t, '/api/Auth/recovery-codes', {}, who.auth);
    expect(codes.json()).toMatchObject({ code: 'reauth-required' });

    const wrong = await post(
      t,
      '/api/Auth/reauthenticate',
      { method: 'totp', code: '000000' },
      who.auth,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'reauth-invalid-code' });
    const proof = await post(
      t,
      '/api/Auth/reauthenticate',
      { method: 'totp', code: nextTotpCode(who.secret) },
      who.auth,
    );
    expect(proof.statusCode, proof.body).toBe(204);

    const renewed = await post(t, '/api/Auth/recovery-codes', {}, who.auth);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = (renewed.json() as { codes: string[] }).codes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(who.recoveryCodes[0]);
    const step = await passwordStep(t.app, who.user.email);
    const old = await post(t, '/api/Auth/mfa/verify', {
      ticket: step.ticket,
      method: 'recovery',
      code: who.recoveryCodes[0],
    });
    expect(old.json()).toMatchObject({ code: 'mfa-invalid-code' });

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/Auth/factors/${who.factorId}`,
      headers: who.auth,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    const status = (
      await t.app.inject({ method: 'GET', url: '/api/Auth/factors', headers: who.auth })
    ).json();
    expect(status).toEqual({ factors: [], recoveryCodesLeft: 0, required: false });
    expect(
      (await post(t, '/api/Auth', { email: who.user.email, password: DEFAULT_PASSWORD }))
        .statusCode,
    ).toBe(200);
  });

  it("one person's factors are theirs alone: another account, of any unit, neither sees nor removes them", async () => {
    const owner = await signedInWith('ADMIN');
    const other = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    const seen = (
      await t.app.inject({ method: 'GET', url: '/api/Auth/factors', headers: other.auth })
    ).json();
    expect(seen).toMatchObject({ factors: [] });
    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/Auth/factors/${owner.factorId}`,
      headers: other.auth,
    });
    expect(removal.statusCode).toBe(404);
    expect(removal.json()).toMatchObject({ code: 'factor-not-found' });
    // A confirmation needs this session's own set-up: another's secret is no use.
    const stolen = await post(
      t,
      '/api/Auth/factors',
      { method: 'totp', code: nextTotpCode(owner.secret) },
      other.auth,
    );
    expect(stolen.json()).toMatchObject({ code: 'mfa-setup-missing' });
    const kept = (
      await t.app.inject({ method: 'GET', url: '/api/Auth/factors', headers: owner.auth })
    ).json();
    expect(kept).toMatchObject({ factors: [{ id: owner.factorId }] });
  });
});
