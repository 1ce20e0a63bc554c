/**
 * Single sign-on against a real OpenID Connect provider started here
 * (`oidc-provider`), on both databases: the code flow with PKCE, linking by
 * CPF and by verified e-mail, every refusal, tampering with state, nonce and
 * ID token, a key rotation, and tenant isolation.
 */
import { SSO_CALLBACK_PATH } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { lastMailTo, seedSignedIn, seedUser } from '../../../test/identity';
import {
  followToCallback,
  registerTestProvider,
  startTestOidcProvider,
  type TestOidcProvider,
} from '../../../test/oidc-provider';
import { forgetProviderConfigurations } from './oidc-client';

describe('single sign-on with a unit identity provider', () => {
  let t: TestApp;
  let idp: TestOidcProvider;
  let admin: { authorization: string };
  let providerId: string;
  let redirectUri: string;

  const createProvider = (auth: { authorization: string }, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/IdentityProvider', headers: auth, payload: body });

  /** The product's browser: the cookie its last sign-in was started with. */
  let browser = '';
  /** Starts a sign-in in the product's browser: the provider's address, the cookie kept. */
  async function startSignIn(): Promise<string> {
    const start = await t.app.inject({ method: 'GET', url: `/api/Auth/sso/${providerId}/start` });
    expect(start.statusCode, start.body).toBe(302);
    const cookie = String(start.headers['set-cookie']);
    expect(cookie).toMatch(
      /^exame_sso=[A-Za-z0-9_-]{43}; Path=\/api\/Auth\/sso; .*HttpOnly; SameSite=Lax/,
    );
    browser = cookie.split(';')[0]!;
    return start.headers.location as string;
  }
  /** The provider's answer brought back to the product (by its own browser unless told). */
  const callBack = (search: string, cookie = browser) =>
    t.app.inject({ method: 'GET', url: `${SSO_CALLBACK_PATH}${search}`, headers: { cookie } });

  /** The browser's whole trip: start, the provider, the callback; returns where the product sent it. */
  async function signInThrough(subject: string, before?: () => Promise<void>): Promise<URL> {
    idp.signInAs(subject);
    const callback = await followToCallback(await startSignIn(), redirectUri);
    await before?.();
    const answer = await callBack(callback.search);
    expect(answer.statusCode, answer.body).toBe(302);
    return new URL(answer.headers.location as string);
  }

  const handoffOf = (returned: URL) => new URLSearchParams(returned.hash.slice(1)).get('handoff');
  const errorOf = (returned: URL) => returned.searchParams.get('sso_error');
  const exchange = (handoff: string, cookie = browser) =>
    t.app.inject({
      method: 'POST',
      url: '/api/Auth/sso/session',
      headers: { cookie },
      payload: { handoff },
    });

  async function signedInUserOf(returned: URL) {
    const handoff = handoffOf(returned);
    expect(handoff, returned.toString()).toBeTruthy();
    const session = await exchange(handoff!);
    expect(session.statusCode, session.body).toBe(200);
    const { token } = session.json() as { token: string };
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/Auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    return me.json() as { email: string; federativeUnit: string };
  }

  beforeAll(async () => {
    t = await buildTestApp();
    redirectUri = `${t.app.config.publicAppUrl}${SSO_CALLBACK_PATH}`;
    idp = await startTestOidcProvider({ redirectUri });
    admin = {
      authorization: `Bearer ${(await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' })).token}`,
    };
    providerId = await registerTestProvider(t.app, admin, idp, 'gov.br (teste)');
  }, 60_000);
  afterAll(async () => {
    await idp?.close();
    await t?.close();
  });
  beforeEach(() => {
    idp.tamperTokens(null);
  });

  it('an ADMIN adds a provider: the secret is sealed at rest and never returned; the sign-in screen lists it', async () => {
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/IdentityProvider',
      headers: admin,
    });
    const [provider] = listed.json() as Array<Record<string, unknown>>;
    expect(provider).toMatchObject({
      id: providerId,
      hasClientSecret: true,
      redirectUri,
      cpfClaim: 'cpf',
      enabled: true,
    });
    expect(listed.body).not.toContain(idp.clientSecret);
    const [stored] = await selectRows<{ client_secret: string }>(
      t.database.db,
      sql`select client_secret from identity_providers where id = ${providerId}`,
    );
    expect(stored?.client_secret).toMatch(/^v1\./);
    expect(stored?.client_secret).not.toContain(idp.clientSecret);
    const [event] = await selectRows<{ payload: Record<string, unknown> }>(
      t.database.db,
      sql`select payload from activity_log where type = 'idp_add' and target = ${`idp:${providerId}`}`,
    );
    expect(JSON.stringify(event?.payload)).not.toContain(idp.clientSecret);
    const forScreen = await t.app.inject({
      method: 'GET',
      url: '/api/Auth/sso/providers?federativeUnit=df',
    });
    expect(forScreen.json()).toEqual([{ id: providerId, name: 'gov.br (teste)' }]);
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/api/Auth/sso/providers?federativeUnit=SP',
    });
    expect(elsewhere.json()).toEqual([]);
  });

  it('code flow with PKCE, state and nonce; the first sign-in links by CPF, later ones by the link', async () => {
    const user = await seedUser(t.app, { role: 'auditor', unit: 'DF' });
    const subject = `sub-${user.id}`;
    idp.accounts.set(subject, {
      cpf: user.cpf,
      email: 'outro-endereco@exemplo.org',
      email_verified: false,
    });
    idp.signInAs(subject);
    const start = await t.app.inject({ method: 'GET', url: `/api/Auth/sso/${providerId}/start` });
    const authorization = new URL(start.headers.location as string);
    expect(authorization.origin).toBe(idp.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('state')).toBeTruthy();
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(authorization.searchParams.get('redirect_uri')).toBe(redirectUri);

    expect((await signedInUserOf(await signInThrough(subject))).email).toBe(user.email);
    // The CPF changes at the provider: the link, not the claim, names the user now.
    idp.accounts.set(subject, { cpf: '00000000000' });
    expect((await signedInUserOf(await signInThrough(subject))).email).toBe(user.email);
    const links = await selectRows<{ user_id: string }>(
      t.database.db,
      sql`select user_id from user_identities where provider_id = ${providerId} and subject = ${subject}`,
    );
    expect(links).toEqual([{ user_id: user.id }]);
    const events = await selectRows<{ payload: { by: string } }>(
      t.database.db,
      sql`select payload from activity_log where type = 'sso_link' and actor_id = ${user.id}`,
    );
    expect(events.map((event) => event.payload.by)).toEqual(['cpf']); // The person hears of the link by e-mail.
    expect((await lastMailTo(t.app, user.email))?.text).toContain(
      'Sua conta foi vinculada ao provedor de identidade "gov.br (teste)"',
    );
  });

  it('links by e-mail only when the provider says it is verified', async () => {
    const user = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    idp.accounts.set('email-nao-verificado', { email: user.email, email_verified: false });
    expect(errorOf(await signInThrough('email-nao-verificado'))).toBe('sso-unknown-user');
    idp.accounts.set('email-verificado', { email: user.email.toUpperCase(), email_verified: true });
    expect((await signedInUserOf(await signInThrough('email-verificado'))).email).toBe(user.email);
  });

  it('refuses an unknown person and a disabled user; creates no one', async () => {
    const count = async () =>
      (
        await selectRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from users`)
      )[0]!.n;
    const before = await count();
    idp.accounts.set('desconhecido', { email: 'ninguem@teste.gov.br', email_verified: true });
    expect(errorOf(await signInThrough('desconhecido'))).toBe('sso-unknown-user');
    expect(await count()).toBe(before);
    const disabled = await seedUser(t.app, {
      role: 'auditor',
      unit: 'DF',
      registerStatus: 'disabled',
    });
    idp.accounts.set('desativado', { cpf: disabled.cpf });
    expect(errorOf(await signInThrough('desativado'))).toBe('user-disabled');
  });

  it('refuses an e-mail outside the allowed domains (unauthorized-domain)', async () => {
    const user = await seedUser(t.app, {
      role: 'auditor',
      unit: 'DF',
      email: `dominio.${Date.now()}@df.gov.br`,
    });
    const change = (allowedDomains: string[]) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/IdentityProvider/${providerId}`,
        headers: admin,
        payload: {
          name: 'gov.br (teste)',
          issuer: idp.issuer,
          clientId: idp.clientId,
          cpfClaim: 'cpf',
          allowedDomains,
        },
      });
    expect((await change(['detran.df.gov.br'])).statusCode).toBe(200);
    try {
      idp.accounts.set('fora-do-dominio', {
        cpf: user.cpf,
        email: user.email,
        email_verified: true,
      });
      expect(errorOf(await signInThrough('fora-do-dominio'))).toBe('unauthorized-domain');
      idp.accounts.set('sem-email', { cpf: user.cpf });
      expect(errorOf(await signInThrough('sem-email'))).toBe('unauthorized-domain');
      // An e-mail the provider does not vouch for does not count for the domain.
      idp.accounts.set('nao-verificado', {
        cpf: user.cpf,
        email: user.email,
        email_verified: false,
      });
      expect(errorOf(await signInThrough('nao-verificado'))).toBe('unauthorized-domain');
      expect((await change(['detran.df.gov.br', 'DF.gov.br'])).statusCode).toBe(200);
      expect((await signedInUserOf(await signInThrough('fora-do-dominio'))).email).toBe(user.email);
    } finally {
      expect((await change([])).statusCode).toBe(200);
    }
    // The secret was kept by changes that did not send one.
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/IdentityProvider',
      headers: admin,
    });
    expect((listed.json() as Array<{ hasClientSecret: boolean }>)[0]?.hasClientSecret).toBe(true);
  });

  it('a tampered or replayed state, a changed nonce and a tampered ID token are refused', async () => {
    const user = await seedUser(t.app, { role: 'auditor', unit: 'DF' });
    idp.accounts.set('alvo', { cpf: user.cpf });
    idp.signInAs('alvo');
    const callback = await followToCallback(await startSignIn(), redirectUri);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const call = (url: URL) => callBack(url.search);
    expect(errorOf(new URL((await call(tampered)).headers.location as string))).toBe('sso-expired');
    const first = new URL((await call(callback)).headers.location as string);
    expect(handoffOf(first)).toBeTruthy();
    // The same answer again (a replay) finds nothing to finish.
    expect(errorOf(new URL((await call(callback)).headers.location as string))).toBe('sso-expired');

    const nonce = await signInThrough('alvo', async () => {
      await t.database.db.execute(
        sql`update sso_logins set nonce = 'outro-nonce' where answered_at is null`,
      );
    });
    expect(errorOf(nonce)).toBe('sso-failed');

    idp.tamperTokens((body) => {
      const [header, payload, signature] = String(body.id_token).split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
      const forged = Buffer.from(JSON.stringify({ ...claims, cpf: '11144477735' })).toString(
        'base64url',
      );
      return { ...body, id_token: `${header}.${forged}.${signature}` };
    });
    expect(errorOf(await signInThrough('alvo'))).toBe('sso-failed');
    idp.tamperTokens(null);
    expect(
      await selectRows(
        t.database.db,
        sql`select 1 from sessions s join users u on u.id = s.user_id where u.cpf = '11144477735'`,
      ),
    ).toEqual([]);
  });

  it('the provider rotates its signing key mid-test: the next sign-in still works', async () => {
    const user = await seedUser(t.app, { role: 'auditor', unit: 'DF' });
    idp.accounts.set('rotacao', { cpf: user.cpf });
    expect((await signedInUserOf(await signInThrough('rotacao'))).email).toBe(user.email);
    await idp.rotateKeys();
    expect((await signedInUserOf(await signInThrough('rotacao'))).email).toBe(user.email);
  });

  it('a hand-off opens one session, once; the provider cancelling is said as such', async () => {
    const user = await seedUser(t.app, { role: 'auditor', unit: 'DF' });
    idp.accounts.set('uma-vez', { cpf: user.cpf });
    const handoff = handoffOf(await signInThrough('uma-vez'))!;
    expect((await exchange(handoff)).statusCode).toBe(200);
    const again = await exchange(handoff);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'sso-expired' });

    const state = new URL(await startSignIn()).searchParams.get('state')!;
    const cancelled = await callBack(`?error=access_denied&state=${state}`);
    expect(errorOf(new URL(cancelled.headers.location as string))).toBe('sso-cancelled');
  });

  it('login CSRF: an answer or a hand-off brought by another browser signs no one in', async () => {
    const user = await seedUser(t.app, { role: 'auditor', unit: 'DF' });
    idp.accounts.set('atacante', { cpf: user.cpf });
    idp.signInAs('atacante');
    // The attacker's own sign-in, its answer opened in the victim's browser (no cookie, or another).
    const callback = await followToCallback(await startSignIn(), redirectUri);
    const elsewhere = await callBack(callback.search, 'exame_sso=' + 'A'.repeat(43));
    expect(errorOf(new URL(elsewhere.headers.location as string))).toBe('sso-failed');
    // A hand-off the attacker obtained, exchanged by the victim's browser.
    const handoff = handoffOf(await signInThrough('atacante'))!;
    const stolen = await exchange(handoff, '');
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toMatchObject({ code: 'sso-expired' });
  });

  it('a provider of one unit signs no one into another, and another unit cannot see or change it', async () => {
    const other = await seedUser(t.app, { role: 'ADMIN', unit: 'SP' });
    idp.accounts.set('outra-unidade', { cpf: other.cpf, email: other.email, email_verified: true });
    expect(errorOf(await signInThrough('outra-unidade'))).toBe('sso-unknown-user');
    expect(
      await selectRows(
        t.database.db,
        sql`select 1 from user_identities where user_id = ${other.id}`,
      ),
    ).toEqual([]);

    const spAdmin = {
      authorization: `Bearer ${(await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' })).token}`,
    };
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/IdentityProvider',
      headers: spAdmin,
    });
    expect(listed.json()).toEqual([]);
    const body = { name: 'tomado', issuer: idp.issuer, clientId: idp.clientId };
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/IdentityProvider/${providerId}`,
      headers: spAdmin,
      payload: body,
    });
    expect(put.statusCode).toBe(404);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/IdentityProvider/${providerId}`,
      headers: spAdmin,
    });
    expect(removed.statusCode).toBe(404);
    const [row] = await selectRows<{ name: string; federative_unit: string }>(
      t.database.db,
      sql`select name, federative_unit from identity_providers where id = ${providerId}`,
    );
    expect(row).toEqual({ name: 'gov.br (teste)', federative_unit: 'DF' });
  });

  it('bad configurations get clear pt-BR errors and nothing is saved', async () => {
    const count = async () =>
      (
        await selectRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from identity_providers`,
        )
      )[0]!.n;
    const before = await count();
    const invalid = await createProvider(admin, {
      name: 'x',
      issuer: 'nao-e-endereco',
      clientId: '',
      allowedDomains: ['@gov.br'],
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(invalid.body).toContain('Domínio inválido');
    const unreachable = await createProvider(admin, {
      name: 'Fora do ar',
      issuer: 'http://127.0.0.1:9/',
      clientId: 'x',
    });
    expect(unreachable.statusCode).toBe(400);
    expect(unreachable.json()).toMatchObject({ code: 'IDP_DISCOVERY_FAILED' });
    expect(await count()).toBe(before);
  });
});

describe('identity providers in production', () => {
  it('refuse a plain-http issuer, and one on a loopback or link-local address, unless SSO_ALLOW_HTTP', async () => {
    forgetProviderConfigurations();
    const t = await buildTestApp({ config: { ssoAllowHttp: false } });
    try {
      const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/IdentityProvider',
        headers: { authorization: `Bearer ${admin.token}` },
        payload: { name: 'Rede do Estado', issuer: 'http://127.0.0.1:9/', clientId: 'x' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'IDP_ISSUER_INSECURE' });
      // Nor may the issuer be this machine or a link-local address (cloud metadata), by address or by name.
      for (const issuer of [
        'https://127.0.0.1:8443/realms/x',
        'https://169.254.169.254/latest',
        'https://[::1]/',
        'https://[::ffff:127.0.0.1]/',
        'https://localhost/realms/x',
      ]) {
        const refused = await t.app.inject({
          method: 'POST',
          url: '/api/IdentityProvider',
          headers: { authorization: `Bearer ${admin.token}` },
          payload: { name: 'Interno', issuer, clientId: 'x' },
        });
        expect(refused.json(), issuer).toMatchObject({ code: 'IDP_ISSUER_FORBIDDEN' });
      }
    } finally {
      await t.close();
    }
  });
});
