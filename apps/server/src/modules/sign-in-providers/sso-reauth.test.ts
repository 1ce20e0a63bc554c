/**
 * Re-authentication through the unit's identity provider (a real OpenID
 * Connect provider started here): for a person who signs in only through the
 * provider, the provider is asked to authenticate again (`prompt=login`,
 * `max_age=0`), and its hand-off renews the proof of that person's session.
 * A sign-in's hand-off is no proof, a proof's hand-off opens no session, and
 * another person's hand-off gets `user-mismatch`.
 */
import { REAUTH_WINDOW_MS, SSO_CALLBACK_PATH } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn, seedUser } from '../../../test/identity';
import {
  followToCallback,
  registerTestProvider,
  startTestOidcProvider,
  type TestOidcProvider,
} from '../../../test/oidc-provider';

describe('re-authentication through the identity provider', () => {
  let t: TestApp;
  let idp: TestOidcProvider;
  let providerId: string;
  let redirectUri: string;

  /** The provider's whole trip for `subject` with `purpose`; the hand-off and the browser's cookie. */
  async function handoffFor(subject: string, purpose: 'sign-in' | 'reauth') {
    idp.signInAs(subject);
    const start = await t.app.inject({
      method: 'GET',
      url: `/api/Auth/sso/${providerId}/start?purpose=${purpose}`,
    });
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    const authorization = new URL(start.headers.location as string);
    const callback = await followToCallback(authorization.toString(), redirectUri);
    const answer = await t.app.inject({
      method: 'GET',
      url: `${SSO_CALLBACK_PATH}${callback.search}`,
      headers: { cookie },
    });
    const back = new URL(answer.headers.location as string);
    const handoff = new URLSearchParams(back.hash.slice(1)).get('handoff');
    expect(handoff, back.toString()).toBeTruthy();
    return { handoff: handoff!, cookie, authorization };
  }
  const reauth = (auth: { authorization: string }, handoff: string, cookie: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/Auth/sso/reauthenticate',
      headers: { ...auth, cookie },
      payload: { handoff },
    });
  /** The person signed in through the provider (no password), with an old proof. */
  async function providerUser(name: string) {
    const who = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    await t.database.db.execute(
      sql`update users set password_hash = null where id = ${who.user.id}`,
    );
    idp.accounts.set(name, { cpf: who.user.cpf });
    await t.database.db.execute(
      sql`update sessions set proven_at = ${new Date(Date.now() - REAUTH_WINDOW_MS - 1000)} where user_id = ${who.user.id}`,
    );
    return who;
  }
  const sensitive = (auth: { authorization: string }) =>
    t.app.inject({ method: 'GET', url: '/api/ActivityLog/export', headers: auth });

  beforeAll(async () => {
    t = await buildTestApp({ config: { sessionCacheMs: 0 } });
    redirectUri = `${t.app.config.publicAppUrl}${SSO_CALLBACK_PATH}`;
    idp = await startTestOidcProvider({ redirectUri });
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    providerId = await registerTestProvider(t.app, admin.auth, idp, 'Rede do Estado');
  }, 60_000);
  afterAll(async () => {
    await idp?.close();
    await t?.close();
  });

  it('the provider authenticates the person again, and the proof lets the sensitive action through', async () => {
    const who = await providerUser('pessoa-do-provedor');
    expect((await sensitive(who.auth)).json()).toMatchObject({ code: 'reauth-required' });

    const first = await handoffFor('pessoa-do-provedor', 'reauth');
    expect(first.authorization.searchParams.get('prompt')).toBe('login');
    expect(first.authorization.searchParams.get('max_age')).toBe('0');
    // Only in the browser that started it.
    expect((await reauth(who.auth, first.handoff, 'exame_sso=outro')).json()).toMatchObject({
      code: 'sso-expired',
    });
    const again = await handoffFor('pessoa-do-provedor', 'reauth');
    const proof = await reauth(who.auth, again.handoff, again.cookie);
    expect(proof.statusCode, proof.body).toBe(204);
    expect((await sensitive(who.auth)).statusCode).toBe(200);
    // Once.
    expect((await reauth(who.auth, again.handoff, again.cookie)).json()).toMatchObject({
      code: 'sso-expired',
    });
  });

  it("another person's hand-off is user-mismatch; a sign-in's is no proof, and a proof's opens no session", async () => {
    const who = await providerUser('titular');
    const other = await seedUser(t.app, { role: 'auditor', unit: 'DF' });
    idp.accounts.set('outra-pessoa', { cpf: other.cpf });

    const foreign = await handoffFor('outra-pessoa', 'reauth');
    const mismatch = await reauth(who.auth, foreign.handoff, foreign.cookie);
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json()).toMatchObject({ code: 'user-mismatch' });

    const signIn = await handoffFor('titular', 'sign-in');
    expect((await reauth(who.auth, signIn.handoff, signIn.cookie)).json()).toMatchObject({
      code: 'sso-expired',
    });
    const proof = await handoffFor('titular', 'reauth');
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/Auth/sso/session',
      headers: { cookie: proof.cookie },
      payload: { handoff: proof.handoff },
    });
    expect(session.json()).toMatchObject({ code: 'sso-expired' });
    expect((await sensitive(who.auth)).json()).toMatchObject({ code: 'reauth-required' });
  });
});
