/**
 * The demonstration flows (`api/Demo`), on both database tiers: registration
 * with the pt-BR validation of the candidate's data, contact and the
 * recorded biometric consent, the refusals before the consent and the
 * enrolment, DEMO only (another unit's ADMIN and every other role are
 * refused and write nothing), the wipe that spares users' enrolments, and
 * the whole flow on the real engine with the dev fixture photos (never
 * holdout), each capture a live take answering its challenge: enrol, a take
 * of another photo of the same person verifies with its scores and the
 * challenge's checks, another person does not match.
 */
import { createHash } from 'node:crypto';
import {
  BIOMETRIC_CONSENT_TEXT,
  BIOMETRIC_CONSENT_VERSION,
  type DemoCandidate,
  type DemoVerification,
} from '@exame/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceService } from '../../biometrics/face-engine';
import { createFaceService } from '../../biometrics/face-pool';
import { selectRows } from '../../db/select-rows';
import { answeredChallenge, rememberingFaceService } from '../../../test/faces/takes';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { nextCpf, seedSignedIn, seedUser } from '../../../test/identity';
import { upsertTemplate } from '../face-enrolment/face-enrolment.repository';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

const CONSENT_SHA256 = createHash('sha256').update(BIOMETRIC_CONSENT_TEXT, 'utf8').digest('hex');
/** Someone who turned 17 today: a year short of the minimum age. */
function seventeenToday(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() - 17, now.getUTCMonth(), now.getUTCDate()))
    .toISOString()
    .slice(0, 10);
}
const contact = (consentVersion = BIOMETRIC_CONSENT_VERSION) => ({
  email: 'Candidata.Demo@Exemplo.com.br',
  phone: '(61) 99999-1234',
  consent: true,
  consentVersion,
});

/** What the demo routes and the face work can have written, every unit at once. */
async function writtenRows(t: TestApp): Promise<Record<string, string>> {
  const tables = [
    'demo_candidates',
    'biometric_templates',
    'biometric_verifications',
    'face_challenges',
    'activity_log',
    'rate_limits',
  ];
  const print: Record<string, string> = {};
  for (const table of tables) {
    const rows = await selectRows<Record<string, unknown>>(
      t.database.db,
      sql.raw(`select * from "${table}"`),
    );
    print[table] = rows
      .map((row) => JSON.stringify(row))
      .sort()
      .join('\n');
  }
  return print;
}

async function activity(t: TestApp, type: string) {
  return selectRows<{
    actor_id: string;
    federative_unit: string;
    payload: Record<string, unknown>;
  }>(
    t.database.db,
    sql`select actor_id, federative_unit, payload from activity_log where type = ${type} order by created_at`,
  );
}

describe('api/Demo: registration, consent, DEMO only and the wipe', () => {
  let t: TestApp;
  let admin: Signed;
  let dfAdmin: Signed;
  let auditor: Signed;
  beforeAll(async () => {
    // No face service given: the app's own is started on first use, which these calls never reach.
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DEMO' });
    dfAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'DEMO' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: InjectOptions['method'], url: string, payload?: unknown, as = admin) =>
    t.app.inject({
      method,
      url,
      headers: as.auth,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });

  it('registers a candidate; an invalid CPF and an under-18 birth date are refused in pt-BR', async () => {
    const invalid = await call('POST', '/api/Demo/candidates', {
      name: 'Candidata Demonstração',
      cpf: '529.982.247-24',
      birthDate: '1990-05-17',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body.cpf', message: 'CPF inválido.' }],
    });
    const minor = await call('POST', '/api/Demo/candidates', {
      name: 'Candidata Demonstração',
      cpf: nextCpf(),
      birthDate: seventeenToday(),
    });
    expect(minor.statusCode).toBe(400);
    expect(minor.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body.birthDate', message: 'O candidato precisa ter ao menos 18 anos.' }],
    });
    expect(await selectRows(t.database.db, sql`select id from demo_candidates`)).toEqual([]);

    const cpf = nextCpf();
    const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    const created = await call('POST', '/api/Demo/candidates', {
      name: '  Candidata Demonstração ',
      cpf: formatted,
      birthDate: '1990-05-17',
    });
    expect(created.statusCode, created.body).toBe(201);
    const candidate = created.json() as DemoCandidate;
    expect(candidate).toMatchObject({
      name: 'Candidata Demonstração',
      cpf,
      birthDate: '1990-05-17',
      email: null,
      phone: null,
      consent: null,
      enrolled: false,
      lastVerification: null,
    });

    // The same CPF again updates name and birth date: the same candidate, 200.
    const again = await call('POST', '/api/Demo/candidates', {
      name: 'Candidata Renomeada',
      cpf,
      birthDate: '1991-01-02',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      id: candidate.id,
      name: 'Candidata Renomeada',
      birthDate: '1991-01-02',
    });
    const events = await activity(t, 'demo_candidate_add');
    expect(events).toEqual([
      {
        actor_id: admin.user.id,
        federative_unit: 'DEMO',
        payload: { candidateId: candidate.id, updated: false },
      },
      {
        actor_id: admin.user.id,
        federative_unit: 'DEMO',
        payload: { candidateId: candidate.id, updated: true },
      },
    ]);

    const second = await call('POST', '/api/Demo/candidates', {
      name: 'Segundo Candidato',
      cpf: nextCpf(),
      birthDate: '1985-12-31',
    });
    expect(second.statusCode).toBe(201);
    const list = await call('GET', '/api/Demo/candidates');
    expect(list.statusCode).toBe(200);
    expect((list.json() as DemoCandidate[]).map((item) => item.name)).toEqual([
      'Segundo Candidato',
      'Candidata Renomeada',
    ]);
    const one = await call('GET', `/api/Demo/candidates/${cpf}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: candidate.id, cpf });
    // Whole CPFs read by the ADMIN are written down by candidate id, never the CPF.
    const views = await activity(t, 'cpf_view');
    expect(views.at(-1)?.payload).toEqual({ demoCandidateIds: [candidate.id] });
    expect(JSON.stringify(views)).not.toContain(cpf);

    const missing = await call('GET', `/api/Demo/candidates/${nextCpf()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      Error: 'Candidato de demonstração não encontrado. Comece pelo cadastro de demonstração.',
      code: 'DEMO_CANDIDATE_NOT_FOUND',
    });
  });

  it('records the contact with the explicit consent: time, version and the text’s SHA-256', async () => {
    const cpf = nextCpf();
    expect(
      (
        await call('POST', '/api/Demo/candidates', {
          name: 'Pessoa Consentimento',
          cpf,
          birthDate: '1979-03-04',
        })
      ).statusCode,
    ).toBe(201);
    const url = `/api/Demo/candidates/${cpf}/contact`;

    const without = await call('PUT', url, { ...contact(), consent: false });
    expect(without.statusCode).toBe(400);
    expect(without.json().details).toEqual([
      {
        path: 'body.consent',
        message: 'O consentimento explícito é necessário para o tratamento dos dados biométricos.',
      },
    ]);
    const outdated = await call('PUT', url, contact('2025-01-v0'));
    expect(outdated.statusCode).toBe(409);
    expect(outdated.json()).toMatchObject({
      Error:
        'O texto do consentimento mudou: mostre a versão atual ao candidato e registre de novo.',
      code: 'DEMO_CONSENT_OUTDATED',
    });
    // Before a consent, nothing biometric: enrolment and verification are refused before the engine.
    const picture = 'A'.repeat(64);
    const take = { image: picture, frames: [picture, picture, picture] };
    for (const [path, payload] of [
      ['enrol', take],
      ['verify', take],
    ] as const) {
      const refused = await call('POST', `/api/Demo/candidates/${cpf}/${path}`, payload);
      expect(refused.statusCode, path).toBe(409);
      expect(refused.json(), path).toMatchObject({
        Error:
          'O candidato ainda não deu o consentimento para o tratamento dos dados biométricos (LGPD, art. 11).',
        code: 'DEMO_CONSENT_REQUIRED',
      });
    }
    const [unchanged] = await selectRows<{ consent_at: Date | null; email: string | null }>(
      t.database.db,
      sql`select consent_at, email from demo_candidates where cpf = ${cpf}`,
    );
    expect(unchanged).toEqual({ consent_at: null, email: null });

    const before = Date.now();
    const recorded = await call('PUT', url, contact());
    expect(recorded.statusCode, recorded.body).toBe(200);
    const body = recorded.json() as DemoCandidate;
    expect(body).toMatchObject({
      email: 'candidata.demo@exemplo.com.br',
      phone: '61999991234',
      consent: { version: BIOMETRIC_CONSENT_VERSION, current: true },
    });
    const at = Date.parse(body.consent?.at ?? '');
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    const [row] = await selectRows<{
      consent_at: Date | string;
      consent_version: string;
      consent_text_sha256: string;
    }>(
      t.database.db,
      sql`select consent_at, consent_version, consent_text_sha256 from demo_candidates where cpf = ${cpf}`,
    );
    expect(row?.consent_version).toBe(BIOMETRIC_CONSENT_VERSION);
    expect(row?.consent_text_sha256).toBe(CONSENT_SHA256);
    expect(new Date(row!.consent_at).getTime()).toBe(at);
    const events = await activity(t, 'demo_consent');
    expect(events.at(-1)).toEqual({
      actor_id: admin.user.id,
      federative_unit: 'DEMO',
      payload: {
        candidateId: body.id,
        version: BIOMETRIC_CONSENT_VERSION,
        textSha256: CONSENT_SHA256,
      },
    });

    // With the consent, a verification needs the enrolment first.
    const notEnrolled = await call('POST', `/api/Demo/candidates/${cpf}/verify`, take);
    expect(notEnrolled.statusCode).toBe(409);
    expect(notEnrolled.json().code).toBe('DEMO_NOT_ENROLLED');

    // A consent to an earlier text no longer counts: shown as not current, and enrolment is refused.
    await t.database.db.execute(
      sql`update demo_candidates set consent_version = '2025-01-v0' where cpf = ${cpf}`,
    );
    const stale = await call('GET', `/api/Demo/candidates/${cpf}`);
    expect(stale.json().consent).toMatchObject({ version: '2025-01-v0', current: false });
    const refused = await call('POST', `/api/Demo/candidates/${cpf}/enrol`, take);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('DEMO_CONSENT_REQUIRED');
    // A contact for nobody registered is not found.
    const nobody = await call('PUT', `/api/Demo/candidates/${nextCpf()}/contact`, contact());
    expect(nobody.statusCode).toBe(404);
  });

  it('is DEMO only: another unit’s ADMIN gets 403 DEMO_UNIT_ONLY on every route, other roles 403, and nothing is written', async () => {
    const cpf = nextCpf();
    expect(
      (
        await call('POST', '/api/Demo/candidates', {
          name: 'Pessoa Alvo',
          cpf,
          birthDate: '1970-01-01',
        })
      ).statusCode,
    ).toBe(201);
    expect((await call('PUT', `/api/Demo/candidates/${cpf}/contact`, contact())).statusCode).toBe(
      200,
    );
    const picture = 'A'.repeat(64);
    // A valid request for each route: only the caller's unit is wrong.
    const requests: Record<string, { url: string; payload?: unknown }> = {
      'POST /api/Demo/candidates': {
        url: '/api/Demo/candidates',
        payload: { name: 'Intrusa', cpf: nextCpf(), birthDate: '1990-01-01' },
      },
      'GET /api/Demo/candidates': { url: '/api/Demo/candidates' },
      'GET /api/Demo/candidates/:cpf': { url: `/api/Demo/candidates/${cpf}` },
      'PUT /api/Demo/candidates/:cpf/contact': {
        url: `/api/Demo/candidates/${cpf}/contact`,
        payload: contact(),
      },
      'POST /api/Demo/candidates/:cpf/enrol': {
        url: `/api/Demo/candidates/${cpf}/enrol`,
        payload: { challengeId: '00000000-0000-4000-8000-000000000000', image: picture },
      },
      'POST /api/Demo/candidates/:cpf/verify': {
        url: `/api/Demo/candidates/${cpf}/verify`,
        payload: {
          challengeId: '00000000-0000-4000-8000-000000000000',
          image: picture,
          frames: [picture, picture, picture],
        },
      },
      'DELETE /api/Demo/data': { url: '/api/Demo/data' },
    };
    const registered = t.app.registeredRoutes
      .filter((route) => route.url.startsWith('/api/Demo') && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`);
    expect(registered.sort()).toEqual(Object.keys(requests).sort());

    const spAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    const viewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DEMO' });
    const before = await writtenRows(t);
    for (const [route, request] of Object.entries(requests)) {
      const method = route.split(' ')[0] as InjectOptions['method'];
      for (const other of [dfAdmin, spAdmin]) {
        const response = await call(method, request.url, request.payload, other);
        expect(response.statusCode, `${route} ${other.user.federativeUnit}`).toBe(403);
        expect(response.json(), route).toMatchObject({
          Error: 'Os fluxos de demonstração existem só na unidade DEMO.',
          code: 'DEMO_UNIT_ONLY',
        });
      }
      // Even an invalid body: the unit is refused before the body is read.
      if (request.payload !== undefined) {
        const invalid = await call(method, request.url, { nada: true }, dfAdmin);
        expect(invalid.json().code, route).toBe('DEMO_UNIT_ONLY');
      }
      for (const role of [auditor, viewer]) {
        const response = await call(method, request.url, request.payload, role);
        expect(response.statusCode, `${route} ${role.user.role}`).toBe(403);
        expect(response.json().code, route).toBe('FORBIDDEN');
      }
    }
    expect(await writtenRows(t)).toEqual(before);
  });

  it('the wipe removes the candidates, their enrolments, images and verifications, and keeps users’ enrolments', async () => {
    // Enrolments written as the face work writes them (the engine's part is the face flow's test).
    const files = t.app.files;
    const enrol = async (cpf: string) => {
      const keys = [await files.put(Buffer.from(`foto 1 de ${cpf}`))];
      keys.push(await files.put(Buffer.from(`foto 2 de ${cpf}`)));
      await upsertTemplate(
        t.database.db,
        {
          federativeUnit: 'DEMO',
          cpf,
          templateSealed: 'selado',
          descriptorVersion: 'teste',
          imageKeys: keys,
          enrolledBy: admin.user.id,
        },
        new Date(),
      );
      await t.database.db.execute(
        sql`insert into biometric_verifications (federative_unit, cpf, requested_by, match, threshold)
            values ('DEMO', ${cpf}, ${admin.user.id}, true, 0.5)`,
      );
      return keys;
    };
    const register = async (cpf: string) => {
      const response = await call('POST', '/api/Demo/candidates', {
        name: 'Pessoa da Limpeza',
        cpf,
        birthDate: '1988-08-08',
      });
      expect(response.statusCode).toBeLessThan(300);
    };

    const candidateCpf = nextCpf();
    await register(candidateCpf);
    const candidateKeys = await enrol(candidateCpf);
    // A user of DEMO, enrolled: never demo data, even registered as a candidate too.
    const user = await seedUser(t.app, { role: 'VIEWER', unit: 'DEMO' });
    const userKeys = await enrol(user.cpf);
    await register(user.cpf);
    const otherUser = await seedUser(t.app, { role: 'VIEWER', unit: 'DEMO' });
    const otherUserKeys = await enrol(otherUser.cpf);
    const listed = await call('GET', '/api/Demo/candidates');
    expect(
      (listed.json() as DemoCandidate[]).find((item) => item.cpf === candidateCpf)?.enrolled,
    ).toBe(true);
    const [{ n: candidates } = { n: 0 }] = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from demo_candidates`,
    );
    // A DF admin's wipe is refused (above); an enrolment of DF with the same CPF is not DEMO's.
    await t.database.db.execute(
      sql`insert into biometric_verifications (federative_unit, cpf, match, threshold)
          values ('DF', ${candidateCpf}, true, 0.5)`,
    );

    // Challenges of captures name the person too: the candidate's go, the user's stay.
    for (const cpf of [candidateCpf, user.cpf]) {
      await t.database.db.execute(
        sql`insert into face_challenges (federative_unit, requested_by, cpf, purpose, steps, expires_at)
            values ('DEMO', ${admin.user.id}, ${cpf}, 'verification', '["left","up"]'::jsonb, now())`,
      );
    }

    const wiped = await call('DELETE', '/api/Demo/data');
    expect(wiped.statusCode, wiped.body).toBe(200);
    expect(wiped.json()).toEqual({ candidates, enrolments: 1 });
    expect(
      await selectRows<{ cpf: string }>(t.database.db, sql`select cpf from face_challenges`),
    ).toEqual([{ cpf: user.cpf }]);

    expect(await selectRows(t.database.db, sql`select id from demo_candidates`)).toEqual([]);
    const templates = await selectRows<{ cpf: string; image_keys: string[] }>(
      t.database.db,
      sql`select cpf, image_keys from biometric_templates where federative_unit = 'DEMO' order by cpf`,
    );
    expect(templates).toEqual(
      [
        { cpf: user.cpf, image_keys: userKeys },
        { cpf: otherUser.cpf, image_keys: otherUserKeys },
      ].sort((a, b) => a.cpf.localeCompare(b.cpf)),
    );
    for (const key of candidateKeys) await expect(files.read(key)).rejects.toThrow();
    for (const key of [...userKeys, ...otherUserKeys])
      await expect(files.read(key)).resolves.toBeTruthy();
    const verifications = await selectRows<{ federative_unit: string; cpf: string }>(
      t.database.db,
      sql`select federative_unit, cpf from biometric_verifications order by federative_unit, cpf`,
    );
    expect(verifications).toEqual(
      expect.arrayContaining([
        { federative_unit: 'DF', cpf: candidateCpf },
        { federative_unit: 'DEMO', cpf: user.cpf },
        { federative_unit: 'DEMO', cpf: otherUser.cpf },
      ]),
    );
    expect(verifications).not.toContainEqual({ federative_unit: 'DEMO', cpf: candidateCpf });
    expect((await activity(t, 'demo_wipe')).at(-1)).toEqual({
      actor_id: admin.user.id,
      federative_unit: 'DEMO',
      payload: { candidates, enrolments: 1, verifications: 1, files: 2 },
    });
    expect((await activity(t, 'demo_candidate_add')).length).toBeGreaterThan(0);

    // Nothing left: a second wipe removes nothing and says so.
    const again = await call('DELETE', '/api/Demo/data');
    expect(again.json()).toEqual({ candidates: 0, enrolments: 0 });
  });

  it('random paths and bodies as the ADMIN of DEMO: never 5xx, every error with Error and code', async () => {
    // The route fuzzer (test/fuzz.test.ts) calls as an ADMIN of DF, refused at the door here.
    const routes = t.app.registeredRoutes.filter(
      (route) => route.url.startsWith('/api/Demo') && route.method !== 'HEAD',
    );
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(nextCpf(), '529.982.247-25')),
        fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record(
            {
              name: fc.string(),
              cpf: fc.string(),
              birthDate: fc.string(),
              email: fc.string(),
              phone: fc.string(),
              consent: fc.jsonValue({ maxDepth: 1 }),
              consentVersion: fc.string(),
              challengeId: fc.oneof(fc.string(), fc.uuid()),
              image: fc.string(),
              frames: fc.array(fc.string(), { maxLength: 5 }),
            },
            { requiredKeys: [] },
          ),
        ),
        async (route, param, payload) => {
          const url = route.url.replace(/:cpf/, encodeURIComponent(param) || 'x');
          const method = route.method as InjectOptions['method'];
          const response = await call(
            method,
            url,
            method === 'GET' || method === 'DELETE' ? undefined : payload,
          );
          if (response.statusCode >= 500) failures.push(`${method} ${url} -> ${response.body}`);
          if (response.statusCode >= 400) {
            const body = JSON.parse(response.body) as { Error?: unknown; code?: unknown };
            if (typeof body.Error !== 'string' || typeof body.code !== 'string') {
              failures.push(`${method} ${url} -> ${response.statusCode} sem Error/code`);
            }
          }
        },
      ),
      { numRuns: 150, seed: 20261125 },
    );
    expect(failures).toEqual([]);
  });
});

describe('api/Demo face flow', () => {
  let face: FaceService;
  let t: TestApp;
  let admin: Signed;
  beforeAll(async () => {
    face = await createFaceService({ inProcess: true });
    t = await buildTestApp({ faceService: rememberingFaceService(face) });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DEMO' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await face?.close();
  });

  const call = (method: InjectOptions['method'], url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: admin.auth,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
  const device = 'd3f0a5e1-2222-4bbb-8ccc-333344445555';
  /** A live take of `photo` answering a challenge DEMO's ADMIN asks for `cpf`. */
  const takeOf = async (purpose: 'enrolment' | 'verification', cpf: string, photo: string) => {
    const { challengeId, image, frames } = await answeredChallenge(
      t.app,
      face,
      admin.token,
      { purpose, cpf },
      photo,
    );
    return { challengeId, image, frames };
  };
  const verifyTake = async (cpf: string, photo: string) => ({
    ...(await takeOf('verification', cpf, photo)),
    deviceId: device,
  });

  it('register, consent, enrol, then a second capture of the same person verifies and another person does not match', async () => {
    const cpf = nextCpf();
    const created = await call('POST', '/api/Demo/candidates', {
      name: 'Pessoa Demonstrada',
      cpf,
      birthDate: '1992-07-21',
    });
    expect(created.statusCode, created.body).toBe(201);
    const early = await call(
      'POST',
      `/api/Demo/candidates/${cpf}/enrol`,
      await takeOf('enrolment', cpf, 'p01-1.jpg'),
    );
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('DEMO_CONSENT_REQUIRED');
    expect(
      await selectRows(t.database.db, sql`select id from biometric_templates where cpf = ${cpf}`),
    ).toEqual([]);

    expect((await call('PUT', `/api/Demo/candidates/${cpf}/contact`, contact())).statusCode).toBe(
      200,
    );
    const enrolment = await takeOf('enrolment', cpf, 'p01-1.jpg');
    const enrolled = await call('POST', `/api/Demo/candidates/${cpf}/enrol`, enrolment);
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    expect(enrolled.json()).toMatchObject({ cpf, captures: 2 });
    const [template] = await selectRows<{ image_keys: string[]; enrolled_by: string }>(
      t.database.db,
      sql`select image_keys, enrolled_by from biometric_templates where federative_unit = 'DEMO' and cpf = ${cpf}`,
    );
    expect(template?.image_keys).toHaveLength(2);
    expect(template?.enrolled_by).toBe(admin.user.id);
    expect((await activity(t, 'biometric_enrol')).at(-1)?.payload).toEqual({
      cpf,
      captures: 2,
      challengeId: enrolment.challengeId,
      subject: 'demo-candidate',
    });
    expect((await call('GET', `/api/Demo/candidates/${cpf}`)).json()).toMatchObject({
      enrolled: true,
      lastVerification: null,
    });

    const same = await call(
      'POST',
      `/api/Demo/candidates/${cpf}/verify`,
      await verifyTake(cpf, 'p01-3.jpg'),
    );
    expect(same.statusCode, same.body).toBe(200);
    const result = same.json() as DemoVerification;
    expect(result).toMatchObject({
      verified: true,
      match: true,
      message: 'Sua validação biométrica foi concluída.',
      liveness: {
        checked: true,
        passed: true,
        checks: { sameFace: true, continuous: true, followed: true, depth: true },
      },
    });
    expect(result.distance).toBeLessThan(result.threshold);
    expect(result.similarity).toBeGreaterThan(0);
    expect(result.threshold).toBe(face.threshold);
    expect(Number.isNaN(Date.parse(result.at))).toBe(false);
    expect((await call('GET', `/api/Demo/candidates/${cpf}`)).json().lastVerification).toEqual(
      result,
    );

    const other = await call(
      'POST',
      `/api/Demo/candidates/${cpf}/verify`,
      await verifyTake(cpf, 'p04-1.jpg'),
    );
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).toMatchObject({
      verified: false,
      match: false,
      message: 'O rosto capturado não corresponde ao cadastro facial deste CPF.',
    });
    expect((other.json() as DemoVerification).distance).toBeGreaterThanOrEqual(
      (other.json() as DemoVerification).threshold,
    );

    // Recorded like any verification: who asked, from which device, the result and the score.
    const rows = await selectRows<{
      requested_by: string;
      device_id: string;
      match: boolean;
      verified: boolean;
      capture_key: string | null;
    }>(
      t.database.db,
      sql`select requested_by, device_id, match, verified, capture_key from biometric_verifications
          where federative_unit = 'DEMO' and cpf = ${cpf} order by created_at`,
    );
    expect(rows).toEqual([
      {
        requested_by: admin.user.id,
        device_id: device,
        match: true,
        verified: true,
        capture_key: null,
      },
      {
        requested_by: admin.user.id,
        device_id: device,
        match: false,
        verified: false,
        capture_key: null,
      },
    ]);

    // The demonstration is not the check-in's face validation: BiopassID/Verify stays DF-only.
    const checkInVerify = await call('POST', '/api/BiopassID/Verify', {
      cpf,
      ...(await verifyTake(cpf, 'p01-3.jpg')),
    });
    expect(checkInVerify.statusCode).toBe(400);
    expect(checkInVerify.json().code).toBe('FACE_VALIDATION_UNAVAILABLE');

    // The wipe takes the enrolment and its stored images with it.
    const wiped = await call('DELETE', '/api/Demo/data');
    expect(wiped.json()).toEqual({ candidates: 1, enrolments: 1 });
    for (const key of template?.image_keys ?? []) {
      await expect(t.app.files.read(key)).rejects.toThrow();
    }
    expect(
      await selectRows(
        t.database.db,
        sql`select id from biometric_verifications where federative_unit = 'DEMO' and cpf = ${cpf}`,
      ),
    ).toEqual([]);
    const gone = await call(
      'POST',
      `/api/Demo/candidates/${cpf}/verify`,
      await verifyTake(cpf, 'p01-3.jpg'),
    );
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('DEMO_CANDIDATE_NOT_FOUND');
  }, 120_000);
});
