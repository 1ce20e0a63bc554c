/**
 * A real OpenID Connect provider (`oidc-provider`) on a local port, for the
 * single sign-on tests: one confidential client, accounts the test defines,
 * an interaction that signs in whichever account the test names next, and a
 * key rotation. `signInThrough` plays the browser: it follows the redirects
 * from the product's start address to the product's callback, cookies kept.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import Provider, { type Configuration } from 'oidc-provider';

export type TestAccount = Record<string, unknown>;

export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by subject; a test adds or changes them. */
  accounts: Map<string, TestAccount>;
  /** The subject the next interaction signs in. */
  signInAs(subject: string): void;
  /** Publishes a new signing key in place of the old one (same issuer and port). */
  rotateKeys(): Promise<void>;
  /** Rewrites the token endpoint's answers on their way to the client (tampering tests). */
  tamperTokens(change: ((body: Record<string, unknown>) => Record<string, unknown>) | null): void;
  close(): Promise<void>;
};

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' };
}

export async function startTestOidcProvider(options: {
  redirectUri: string;
}): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestAccount>();
  let nextSubject = '';
  let tamper: ((body: Record<string, unknown>) => Record<string, unknown>) | null = null;
  const clientId = 'exame-admin';
  const clientSecret = `segredo-${randomUUID()}`;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration = (keys: object[]): Configuration => ({
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [new URL('/login', options.redirectUri).toString()],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: keys as never },
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Grant: 600,
      Session: 600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'cpf'] },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
    },
    // Consent is not asked: the tests are about the relying party.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });

  let provider = new Provider(issuer, configuration([signingKey()]));
  server.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname.startsWith('/interaction/')) {
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: nextSubject } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      if (tamper && req.method === 'POST' && url.pathname === '/token') {
        const write = res.write.bind(res);
        const end = res.end.bind(res);
        const chunks: Buffer[] = [];
        res.write = ((chunk: Buffer | string) => {
          chunks.push(Buffer.from(chunk));
          return true;
        }) as typeof res.write;
        res.end = ((chunk?: Buffer | string) => {
          if (chunk) chunks.push(Buffer.from(chunk));
          const body = JSON.stringify(tamper!(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
          res.setHeader('content-length', Buffer.byteLength(body));
          write(body);
          return end();
        }) as typeof res.end;
      }
      provider.callback()(req, res);
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signInAs: (subject) => {
      nextSubject = subject;
    },
    rotateKeys: async () => {
      provider = new Provider(issuer, configuration([signingKey()]));
    },
    tamperTokens: (change) => {
      tamper = change;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Follows redirects from `start` (an absolute address) with a cookie jar,
 * through the provider, until the product's callback; returns its address.
 */
export async function followToCallback(start: string, callbackPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 12; hop += 1) {
    if (url.startsWith(callbackPrefix)) return new URL(url);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (!location) {
      throw new Error(`o provedor parou em ${url}: ${response.status} ${await response.text()}`);
    }
    url = new URL(location, url).toString();
  }
  throw new Error('redirecionamentos demais');
}

/**
 * `POST api/IdentityProvider`: `idp` registered by a unit's ADMIN (`auth`),
 * the CPF in its `cpf` claim; the new provider's id (anything but 201 fails).
 */
export async function registerTestProvider(
  app: FastifyInstance,
  auth: { authorization: string },
  idp: TestOidcProvider,
  name: string,
): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/IdentityProvider',
    headers: auth,
    payload: {
      name,
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      cpfClaim: 'cpf',
    },
  });
  if (created.statusCode !== 201)
    throw new Error(`provedor: ${created.statusCode} ${created.body}`);
  return (created.json() as { id: string }).id;
}
