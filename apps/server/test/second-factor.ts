/**
 * Helpers for tests of the second factor: an authenticator app (the codes of
 * a secret), a software passkey (an ES256 key that answers WebAuthn options
 * the way a browser and its authenticator do: attestation "none", a signed
 * assertion), and the step after a right password.
 */
import {
  createHash,
  createSign,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { MFA_TICKET_TTL_MS } from '@exame/shared';
import { randomToken } from '../src/lib/crypto';
import { totpCode } from '../src/lib/totp';
import { putTicket } from '../src/modules/auth/second-factor.repository';
import { ticketKey } from '../src/modules/auth/second-factor.service';
import { DEFAULT_PASSWORD } from './identity';

const b64url = (bytes: Buffer | Uint8Array) => Buffer.from(bytes).toString('base64url');

/* A minimal CBOR encoder: unsigned and negative integers, byte and text strings, maps. */
function cborHead(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 256) return Buffer.from([(major << 5) | 24, value]);
  const head = Buffer.alloc(3);
  head[0] = (major << 5) | 25;
  head.writeUInt16BE(value, 1);
  return head;
}
type Cbor = number | string | Buffer | Map<number | string, Cbor>;
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, text.length), text]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([cborHead(2, value.length), value]);
  const parts = [cborHead(5, value.size)];
  for (const [key, entry] of value) parts.push(cbor(key), cbor(entry));
  return Buffer.concat(parts);
}

type Options = { challenge: string; rp?: { id?: string }; rpId?: string };

/** A passkey held in memory: registers once, then signs assertions with a rising counter. */
export function softPasskey(origin: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(16);
  let counter = 0;
  const jwk = (publicKey as KeyObject).export({ format: 'jwk' });
  const coseKey = cbor(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  const rpHash = (rpId: string) => createHash('sha256').update(rpId).digest();
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const flagsAndCount = (flags: number) => {
    const tail = Buffer.alloc(5);
    tail[0] = flags;
    tail.writeUInt32BE(counter, 1);
    return tail;
  };

  return {
    id: b64url(credentialId),
    /** The browser's answer to registration options (`navigator.credentials.create`). */
    register(options: Options, rpId = options.rp?.id ?? 'localhost') {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        rpHash(rpId),
        flagsAndCount(0x45), // user present, user verified, attested credential data
        Buffer.alloc(16), // AAGUID
        idLength,
        credentialId,
        coseKey,
      ]);
      const attestationObject = cbor(
        new Map<string, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    /** The browser's answer to authentication options (`navigator.credentials.get`). */
    assert(options: Options, rpId = options.rpId ?? 'localhost') {
      counter += 1;
      const authenticatorData = Buffer.concat([rpHash(rpId), flagsAndCount(0x05)]);
      const clientDataJSON = clientData('webauthn.get', options.challenge);
      const signature = createSign('SHA256')
        .update(
          Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]),
        )
        .sign(privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authenticatorData),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      };
    },
  };
}

/** The code an app shows `steps` steps ahead (one step: accepted, and later than a code used just before). */
export const nextTotpCode = (secret: string, steps = 1) =>
  totpCode(secret, new Date(Date.now() + steps * 30_000));

type Auth = { authorization: string };

/** Adds an authenticator app to a signed-in account; returns its secret and the recovery codes. */
export async function addTotp(app: FastifyInstance, auth: Auth) {
  const setup = await app.inject({ method: 'POST', url: '/api/Auth/factors/totp', headers: auth });
  if (setup.statusCode !== 200) throw new Error(`set-up falhou: ${setup.body}`);
  const { secret } = setup.json() as { secret: string };
  const added = await app.inject({
    method: 'POST',
    url: '/api/Auth/factors',
    headers: auth,
    payload: { method: 'totp', code: totpCode(secret, new Date()), label: 'Celular' },
  });
  if (added.statusCode !== 201) throw new Error(`cadastro falhou: ${added.body}`);
  const body = added.json() as { factor: { id: string }; recoveryCodes?: string[] };
  return { secret, factorId: body.factor.id, recoveryCodes: body.recoveryCodes ?? [] };
}

/** A password sign-in that stops at the second step: the answer's ticket. */
export async function passwordStep(
  app: FastifyInstance,
  email: string,
  password = DEFAULT_PASSWORD,
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/Auth',
    payload: { email, password },
  });
  const body = response.json() as { code?: string; mfa?: { ticket: string; methods: string[] } };
  if (!body.mfa)
    throw new Error(`esperava o segundo passo: ${response.statusCode} ${response.body}`);
  return { status: response.statusCode, code: body.code, ...body.mfa };
}

/**
 * The ticket a right password of a role that requires a factor gets, for a
 * user without one (without changing the app's settings).
 */
export async function enrolmentTicketFor(app: FastifyInstance, userId: string): Promise<string> {
  const ticket = randomToken();
  await putTicket(app.database.db, {
    keyHash: ticketKey(ticket),
    userId,
    purpose: 'enrol-at-sign-in',
    expiresAt: new Date(Date.now() + MFA_TICKET_TTL_MS),
  });
  return ticket;
}
