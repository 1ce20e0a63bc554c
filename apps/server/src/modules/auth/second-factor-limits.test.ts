/**
 * The limits around the second factor: a right password does not wipe the
 * wrong codes counted before it; a session left open cannot give itself a
 * factor without a recent proof; two confirmations of one set-up add one
 * factor; the steps after a password end with the sessions; an ADMIN resets
 * others' factors, never their own, and says so when there is nothing to reset.
 */
import { REAUTH_WINDOW_MS } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { totpCode } from '../../lib/totp';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, lastMailTo, seedSignedIn } from '../../../test/identity';
import { addTotp, passwordStep, softPasskey } from '../../../test/second-factor';

describe('second factor: limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { sessionCacheMs: 0 } });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const wrongCode = (ticket: string) =>
    post('/api/Auth/mfa/verify', { ticket, method: 'totp', code: '000000' });
  const codeOf = async (response: Promise<{ json(): unknown }>) =>
    ((await response).json() as { code: string }).code;

  it('the password again does not wipe the wrong codes before it: the account waits', async () => {
    const who = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    await addTotp(t.app, who.auth);
    const first = await passwordStep(t.app, who.user.email);
    for (let i = 0; i < 4; i += 1)
      expect(await codeOf(wrongCode(first.ticket))).toBe('mfa-invalid-code');
    const second = await passwordStep(t.app, who.user.email);
    expect(second.code).toBe('multi-factor-auth-required');
    expect(await codeOf(wrongCode(second.ticket))).toBe('mfa-invalid-code');
    expect(await codeOf(wrongCode(second.ticket))).toBe('login-blocked');
    const password = await post('/api/Auth', { email: who.user.email, password: DEFAULT_PASSWORD });
    expect(password.statusCode).toBe(429);
  });

  it('a session whose proof is old adds no factor until the person proves who they are', async () => {
    const who = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    await t.database.db.execute(
      sql`update sessions set proven_at = ${new Date(Date.now() - REAUTH_WINDOW_MS - 1000)} where user_id = ${who.user.id}`,
    );
    for (const url of ['/api/Auth/factors/totp', '/api/Auth/factors/passkey/options']) {
      expect(await codeOf(post(url, {}, who.auth))).toBe('reauth-required');
    }
    expect(
      await codeOf(post('/api/Auth/factors', { method: 'totp', code: '123456' }, who.auth)),
    ).toBe('reauth-required');
    const [row] = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from user_factors where user_id = ${who.user.id}`,
    );
    expect(row!.n).toBe(0);
  });

  it('two confirmations of one set-up sent together add one factor', async () => {
    const who = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const setup = (await post('/api/Auth/factors/totp', {}, who.auth)).json() as { secret: string };
    const code = totpCode(setup.secret, new Date());
    const answers = await Promise.all(
      [1, 2].map(() => post('/api/Auth/factors', { method: 'totp', code }, who.auth)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const [row] = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from user_factors where user_id = ${who.user.id}`,
    );
    expect(row!.n).toBe(1);
  });

  it('a change of role (like a new password or disabling) ends the steps after the password', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const who = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    await addTotp(t.app, who.auth);
    const step = await passwordStep(t.app, who.user.email);
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/User/${who.user.id}/role`,
      headers: admin.auth,
      payload: { role: 'VIEWER' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [row] = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from mfa_tickets where user_id = ${who.user.id}`,
    );
    expect(row!.n).toBe(0);
    expect(await codeOf(wrongCode(step.ticket))).toBe('mfa-ticket-invalid');
  });

  it("an ADMIN does not reset their own factors, and hears when another's has none", async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    await addTotp(t.app, admin.auth);
    const plain = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const reset = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/User/${id}/factors`, headers: admin.auth });
    // The ADMIN's list says who has a factor (and so who can be reset).
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/User?search=${encodeURIComponent(plain.user.email)}`,
      headers: admin.auth,
    });
    expect(listed.json()).toMatchObject({ items: [{ id: plain.user.id, hasSecondFactor: false }] });
    const self = await t.app.inject({
      method: 'GET',
      url: `/api/User?search=${encodeURIComponent(admin.user.email)}`,
      headers: admin.auth,
    });
    expect(self.json()).toMatchObject({ items: [{ id: admin.user.id, hasSecondFactor: true }] });
    expect(await codeOf(reset(admin.user.id))).toBe('mfa-reset-self');
    expect(await codeOf(reset(plain.user.id))).toBe('mfa-nothing-to-reset');
    expect((await passwordStep(t.app, admin.user.email)).code).toBe('multi-factor-auth-required');
  });
  it("an ADMIN clears the factors of a user of the unit who lost them; not of another unit's, and no one else may", async () => {
    const lost = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    await addTotp(t.app, lost.auth);
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const stranger = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    const peer = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    const reset = (who: { auth: { authorization: string } }) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/User/${lost.user.id}/factors`,
        headers: who.auth,
      });

    expect((await reset(peer)).statusCode).toBe(403);
    const foreign = await reset(stranger);
    expect(foreign.statusCode).toBe(404);
    expect((await passwordStep(t.app, lost.user.email)).code).toBe('multi-factor-auth-required');

    expect((await reset(admin)).statusCode).toBe(204);
    const status = (
      await t.app.inject({ method: 'GET', url: '/api/Auth/factors', headers: lost.auth })
    ).json();
    expect(status).toEqual({ factors: [], recoveryCodesLeft: 0, required: false });
    expect(
      (await post('/api/Auth', { email: lost.user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);
    const [event] = await selectRows<{ type: string; target: string }>(
      t.database.db,
      sql`select type, target from activity_log where actor_id = ${admin.user.id} and type = 'mfa_reset'`,
    );
    expect(event).toEqual({ type: 'mfa_reset', target: `user:${lost.user.id}` });
    expect((await lastMailTo(t.app, lost.user.email))?.text).toContain(
      'O administrador da sua unidade redefiniu o segundo fator',
    );
  });

  it('a passkey re-authenticates too, once per challenge', async () => {
    const who = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    const key = softPasskey(t.app.identity.config.secondFactor.origin);
    const options = (await post('/api/Auth/factors/passkey/options', {}, who.auth)).json();
    const added = await post(
      '/api/Auth/factors',
      { method: 'passkey', credential: key.register(options) },
      who.auth,
    );
    expect(added.statusCode, added.body).toBe(201);
    await t.database.db.execute(
      sql`update sessions set proven_at = ${new Date(Date.now() - REAUTH_WINDOW_MS - 1000)} where user_id = ${who.user.id}`,
    );
    expect(await codeOf(post('/api/Auth/recovery-codes', {}, who.auth))).toBe('reauth-required');
    const challenge = (
      await post('/api/Auth/reauthenticate/passkey/options', {}, who.auth)
    ).json() as { challenge: string };
    const answer = key.assert(challenge);
    const proof = await post('/api/Auth/reauthenticate', { credential: answer }, who.auth);
    expect(proof.statusCode, proof.body).toBe(204);
    expect((await post('/api/Auth/recovery-codes', {}, who.auth)).statusCode).toBe(200);
    expect(await codeOf(post('/api/Auth/reauthenticate', { credential: answer }, who.auth))).toBe(
      'passkey-failed',
    );
  });
});
