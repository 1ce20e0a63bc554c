/**
 * Tenant isolation of writes (security guide, "Access control"): every route
 * that creates or changes something, called by an actor of unit A (its ADMIN,
 * its other users, its integration key, or anonymously), leaves every other
 * unit untouched and sees nothing of it: the rows of every other unit, and
 * what their users read through the API, are the same before and after.
 *
 * Each write route must have an entry below, a valid request as unit A and,
 * where it names a resource, the same request aimed at another unit's
 * resource. A new write route without an entry fails the first test.
 *
 * Then every write route again, called by each role of unit A, a disabled
 * user of A and an anonymous caller: the roles the route declares pass its
 * policy, the others get 401/403, and still nothing of another unit changes.
 */
import { BIOMETRIC_CONSENT_VERSION, DEMO_UNIT, ROLES, type Role } from '@exame/shared';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceService } from '../biometrics/face-engine';
import { createFaceService } from '../biometrics/face-pool';
import {
  answeredChallenge,
  rememberingFaceService,
  requestChallenge,
} from '../../test/faces/takes';
import { selectRows } from '../db/select-rows';
import { isPluginRoute } from '../lib/route-policy';
import { hashToken, randomToken } from '../lib/crypto';
import {
  createApiKeyFor,
  createPost,
  createRoom,
  examPayload,
  postExams,
  sampleJpeg,
} from '../../test/exams';
import { buildTestApp, testConfig, type TestApp } from '../../test/helper';
import { DEFAULT_PASSWORD, lastMailTo, nextCpf, seedSignedIn, seedUser } from '../../test/identity';
import {
  addTotp,
  enrolmentTicketFor,
  nextTotpCode,
  passwordStep,
  softPasskey,
} from '../../test/second-factor';
import { webEvent } from '../../test/web-events';

const A = 'DF';
/** A disabled identity provider: saved without reading its configuration. */
const providerBody = (unit: string) => ({
  name: `Provedor ${unit}`,
  issuer: `https://idp.${unit.toLowerCase()}.gov.br`,
  clientId: `exame-${unit}`,
  clientSecret: `segredo-${unit}`,
  enabled: false,
});
const CHECK_IN_POST = `${A}.POSTO78`;
/** Every other unit must stay as it was; DEMO is where the reviewed probe landed. */
const OTHERS = ['SP', 'DEMO'] as const;

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Fixture = {
  admin: Signed;
  viewer: Signed;
  auditor: Signed;
  key: string;
  keyId: string;
  userId: string;
  userCpf: string;
  localId: string;
  schedulingId: string;
  /** An open check-in of the unit's examiner (units without face validation). */
  checkInId: string | null;
  /** A room of POSTO77 with one station. */
  roomId: string;
  stationId: string;
  /** A scheduled exam on the station of that room. */
  roomExamId: string;
  /** A disqualification reason of the unit. */
  reasonId: string;
  /** A done exam waiting for audit. */
  auditExamId: string;
  /** A done exam with its result released (approved): it may have a certificate. */
  certificateExamId: string;
  /** An identity provider of the unit (disabled: it is never asked for its configuration). */
  providerId: string;
  /** The authenticator app of the unit's auditor. */
  factorId: string;
  /** An open case of possible fraud with the exams waiting for audit and released. */
  fraudCaseId: string;
};

/** Tables without a unit column, and how their rows reach a unit. */
const CHILD_TABLES: Record<string, string> = {
  // Without last_seen_at: a unit's own requests touch it once a minute (a slow run crosses that).
  sessions:
    'select s.token_hash, s.user_id, s.created_at, s.expires_at, s.revoked_at, s.revoked_reason, s.ip, s.user_agent from sessions s join users u on u.id = s.user_id where u.federative_unit = $unit',
  password_links:
    'select p.* from password_links p join users u on u.id = p.user_id where u.federative_unit = $unit',
  trusted_devices:
    'select d.* from trusted_devices d join users u on u.id = d.user_id where u.federative_unit = $unit',
  mail_outbox:
    'select m.* from mail_outbox m where m.recipient in (select email from users where federative_unit = $unit)',
  exam_status_history:
    'select h.* from exam_status_history h join exams e on e.id = h.exam_id where e.federative_unit = $unit',
  exam_photos:
    'select p.* from exam_photos p join exams e on e.id = p.exam_id where e.federative_unit = $unit',
  occurrences:
    'select o.* from occurrences o join exams e on e.id = o.exam_id where e.federative_unit = $unit',
  // A unit's chain is named by the unit. Its head moves with the unit's own
  // reads (`cpf_view` of the views below); its events are compared in activity_log.
  activity_chain_heads: 'select h.chain from activity_chain_heads h where h.chain = $unit',
  // A unit's own row (its settings): no write of another unit may change it.
  federative_units: 'select f.* from federative_units f where f.uf = $unit',
  sso_logins:
    'select l.* from sso_logins l join identity_providers p on p.id = l.provider_id where p.federative_unit = $unit',
  user_identities:
    'select i.* from user_identities i join users u on u.id = i.user_id where u.federative_unit = $unit',
  user_factors:
    'select f.* from user_factors f join users u on u.id = f.user_id where u.federative_unit = $unit',
  recovery_codes:
    'select c.* from recovery_codes c join users u on u.id = c.user_id where u.federative_unit = $unit',
  mfa_tickets:
    'select m.* from mfa_tickets m join users u on u.id = m.user_id where u.federative_unit = $unit',
  fraud_case_exams:
    'select x.* from fraud_case_exams x join fraud_cases c on c.id = x.case_id where c.federative_unit = $unit',
  fraud_case_matches:
    'select m.* from fraud_case_matches m join fraud_cases c on c.id = m.case_id where c.federative_unit = $unit',
};
/** Tables that belong to no unit (reference data, counters keyed by pseudonyms, queues). */
const GLOBAL_TABLES = new Set([
  'settings',
  'login_throttle',
  'rate_limits',
  'password_link_requests',
]);

describe('tenant isolation of writes', () => {
  let t: TestApp;
  let face: FaceService | undefined;
  const units = new Map<string, Fixture>();
  const withFaces = !process.env.TEST_DATABASE_URL;

  /** A case of possible fraud as the face search opens one (fraud-detection.service.ts). */
  async function openFraudCase(unit: string, examIds: [string, string]): Promise<string> {
    const [created] = await selectRows<{ id: string }>(
      t.database.db,
      sql`insert into fraud_cases (federative_unit, number, highest_similarity)
          values (${unit}, (select coalesce(max(number), 0) + 1 from fraud_cases where federative_unit = ${unit}), 0.8)
          returning id`,
    );
    const [first, second] = [...examIds].sort();
    await t.database.db.execute(
      sql`insert into fraud_case_exams (case_id, exam_id) values (${created!.id}, ${first}), (${created!.id}, ${second})`,
    );
    await t.database.db.execute(
      sql`insert into fraud_case_matches (case_id, exam_a, exam_b, similarity)
          values (${created!.id}, ${first}, ${second}, 0.8) on conflict (exam_a, exam_b) do nothing`,
    );
    return created!.id;
  }

  async function seedUnit(unit: string): Promise<Fixture> {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit });
    const viewer = await seedSignedIn(t.app, { role: 'VIEWER', unit });
    const auditor = await seedSignedIn(t.app, { role: 'auditor', unit });
    const created = await createApiKeyFor(t.app, admin.auth, `Chave ${unit}`);
    const local = await createPost(t.app, admin.auth, `${unit}.POSTO77`, `Posto 77 ${unit}`);
    const schedulingId = `${unit}-ISOLAMENTO-1`;
    /** An exam of the post's room `room`. */
    const exam = (id: string, room: string, more: object = {}) =>
      examPayload({
        schedulingId: id,
        ...more,
        metadata: { schedulingLocal: `${unit}.POSTO77-${room}` },
      });
    const pushed = await postExams(t.app, created.key, [
      exam(schedulingId, 'S1', { status: 'started' }),
      // Unit A reuses this id for an exam of its own: ids are per unit.
      exam(`${unit}-MESMO-ID`, 'S2'),
      exam(`${unit}-AUDITORIA`, 'S2', { status: 'done', result: 'in_analysis' }),
      exam(`${unit}-CERTIFICADO`, 'S1', { status: 'done', result: 'approved', score: 84 }),
      exam(`${unit}-SALA-1`, 'S1', { station: 'Estação 01' }),
    ]);
    expect(pushed.statusCode).toBe(200);
    const checkIn =
      unit === 'DF'
        ? null
        : await t.app.inject({
            method: 'POST',
            url: '/api/SchedulingLocalCheckIn/checkIn',
            headers: viewer.auth,
            payload: { viewers: [{ cpf: viewer.user.cpf }], schedulingLocal: `${unit}.POSTO77` },
          });
    if (checkIn) expect(checkIn.statusCode, checkIn.body).toBe(201);
    const room = await createRoom(t.app, admin.auth, `${unit}.POSTO77`, {
      stations: [{ code: 'Estação 01', position: 1 }],
    });
    expect(room.statusCode, room.body).toBe(201);
    const roomBody = room.json() as { id: string; stations: Array<{ id: string }> };
    const reason = await t.app.inject({
      method: 'POST',
      url: '/api/DisqualificationReason',
      headers: admin.auth,
      payload: { code: 'D77', text: `Justificativa da unidade ${unit}.` },
    });
    expect(reason.statusCode, reason.body).toBe(201);
    const examId = async (suffix: string) =>
      (
        await selectRows<{ id: string }>(
          t.database.db,
          sql`select id from exams where federative_unit = ${unit} and scheduling_id = ${`${unit}-${suffix}`}`,
        )
      )[0]!.id;
    const provider = await t.app.inject({
      method: 'POST',
      url: '/api/IdentityProvider',
      headers: admin.auth,
      payload: providerBody(unit),
    });
    expect(provider.statusCode, provider.body).toBe(201);
    const { factorId } = await addTotp(t.app, auditor.auth);
    const roomExamId = await examId('SALA-1');
    const auditExamId = await examId('AUDITORIA');
    const certificateExamId = await examId('CERTIFICADO');
    const fraudCaseId = await openFraudCase(unit, [auditExamId, certificateExamId]);
    return {
      fraudCaseId,
      auditExamId,
      certificateExamId,
      reasonId: (reason.json() as { id: string }).id,
      roomExamId,
      roomId: roomBody.id,
      stationId: roomBody.stations[0]!.id,
      checkInId: checkIn ? (checkIn.json() as { id: string }).id : null,
      admin,
      viewer,
      auditor,
      key: created.key,
      keyId: created.apiKey.id,
      userId: viewer.user.id,
      userCpf: viewer.user.cpf,
      localId: (local.json() as { id: string }).id,
      schedulingId,
      providerId: (provider.json() as { id: string }).id,
      factorId,
    };
  }

  beforeAll(async () => {
    if (withFaces) face = await createFaceService({ inProcess: true });
    // The two-person rule on, no re-check: the audit's decision, confirmation and
    // reopening below each have something to do, the same way every run.
    t = await buildTestApp({
      faceService: face && rememberingFaceService(face),
      config: { audit: { ...testConfig().audit, twoPersonRule: true, recheckRate: 0 } },
      // Every face call below asks for its challenge, the role checks many times over.
      rateLimits: { challengePerUser: { limit: 10_000 } },
    });
    for (const unit of [A, ...OTHERS]) units.set(unit, await seedUnit(unit));
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await face?.close();
  });

  const a = () => units.get(A)!;
  const other = () => units.get('SP')!;

  /** The rows of `unit`, table by table, as one comparable text. */
  async function fingerprint(unit: string): Promise<Record<string, string>> {
    const tables = await selectRows<{ table_name: string; has_unit: boolean }>(
      t.database.db,
      sql`select table_name, bool_or(column_name = 'federative_unit') as has_unit
          from information_schema.columns where table_schema = 'public' group by table_name`,
    );
    const print: Record<string, string> = {};
    for (const { table_name: table, has_unit: hasUnit } of tables) {
      if (GLOBAL_TABLES.has(table)) continue;
      const query = hasUnit
        ? `select * from "${table}" where federative_unit = $unit`
        : CHILD_TABLES[table];
      if (!query) throw new Error(`tabela ${table} sem regra de unidade neste teste`);
      const rows = await selectRows<Record<string, unknown>>(
        t.database.db,
        sql.raw(query.replace('$unit', `'${unit}'`)),
      );
      print[table] = rows
        // The unit's own admin reading its user list (the `views` below) is
        // written down as `cpf_view`: that is the observer, not unit A.
        .filter((row) => !(table === 'activity_log' && row.type === 'cpf_view'))
        .map((row) => JSON.stringify(row))
        .sort()
        .join('\n');
    }
    return print;
  }

  /** What the users of `unit` read through the list routes. */
  async function views(unit: string): Promise<Record<string, string>> {
    const fixture = units.get(unit)!;
    const reads: Array<[string, Signed]> = [
      ['/api/User?pageSize=100', fixture.admin],
      ['/api/User/GetAllExaminers', fixture.viewer],
      ['/api/SchedulingLocal', fixture.admin],
      [`/api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/${unit}`, fixture.viewer],
      ['/api/Exam?pageSize=200', fixture.auditor],
      ['/api/ExamReport?startDate=2026-01-01&endDate=2026-12-31', fixture.auditor],
      ['/api/ExamReport/occurrences?startDate=2026-01-01&endDate=2026-12-31', fixture.auditor],
      ['/api/Integration/keys', fixture.admin],
      ['/api/IdentityProvider', fixture.admin],
      ['/api/SchedulingLocalCheckIn/searchCheckIn?pageSize=100', fixture.admin],
      ['/api/ExamRoom?includeInactive=true', fixture.viewer],
      [`/api/ExamRoom/${fixture.roomId}/board`, fixture.viewer],
      ['/api/DisqualificationReason?pageSize=100', fixture.auditor],
      ['/api/Audit/queue?pageSize=100', fixture.auditor],
      ['/api/Audit/mine', fixture.auditor],
      ['/api/FederativeUnit/settings', fixture.admin],
    ];
    const seen: Record<string, string> = {};
    for (const [url, caller] of reads) {
      const response = await t.app.inject({ method: 'GET', url, headers: caller.auth });
      expect(response.statusCode, url).toBe(200);
      seen[url] = response.body;
    }
    return seen;
  }

  type Write = (fixture: Fixture) => Promise<InjectOptions> | InjectOptions;
  /** Writes by one caller of unit A (its headers read when the call is made). */
  const writeAs =
    (headers: () => Record<string, string>) =>
    (
      method: InjectOptions['method'],
      url: (f: Fixture) => string,
      payload?: (f: Fixture) => unknown,
    ): Write =>
    async (fixture) => ({
      method,
      url: url(fixture),
      headers: headers(),
      ...(payload ? { payload: (await payload(fixture)) as InjectOptions['payload'] } : {}),
    });
  const asAdmin = writeAs(() => a().admin.auth);
  const asAuditor = writeAs(() => a().auditor.auth);
  const asViewer = writeAs(() => a().viewer.auth);
  const asIntegration = writeAs(() => ({ 'x-api-key': a().key }));
  /** The same call as unit A and aimed at another unit's resource (the fixture names it). */
  const both = (write: Write) => ({ own: write, foreign: write });
  /** A call about the fixture's exam waiting for audit, by unit A's auditor (or `writer`). */
  const toAudit = (path: string, payload?: () => unknown, writer = asAuditor) =>
    writer('POST', (f) => `/api/Audit/${f.auditExamId}/${path}`, payload);
  /** Unit A's auditor takes the exam (`auth`: another auditor of A). */
  const claim = (examId: string, auth = a().auditor.auth) =>
    t.app.inject({ method: 'POST', url: `/api/Audit/${examId}/claim`, headers: auth });
  /** A capture of the exam `schedulingId` sent by unit A's integration. */
  const photoPayload = async (seed?: number, capturedAt = '2026-11-20T10:05:00-03:00') => ({
    image: (await sampleJpeg(240, seed)).toString('base64'),
    capturedAt,
  });
  /** An occurrence the integration reports. */
  const occurrencePayload = (externalId: string) => ({
    occurrences: [
      {
        externalId,
        type: 'terceiro',
        description: 'Teste',
        occurredAt: '2026-11-20T10:00:00-03:00',
      },
    ],
  });

  let enrolledCpf = '';
  /** Unit A's check-in, made by its examiner with faces (DF requires them). */
  let ticket = '';
  let recordId = '00000000-0000-4000-8000-000000000000';
  let second: Awaited<ReturnType<typeof seedUser>> | undefined;
  let secondViewerId = '00000000-0000-4000-8000-000000000000';
  /** Pictures without a face: what the calls send where the engine does not run. */
  const captures = async () => ({
    image: (await sampleJpeg(200)).toString('base64'),
    frames: [] as string[],
  });
  /**
   * A live take of `photo` answering a challenge `who` asks for `cpf` and
   * `purpose`; without the engine, the challenge with pictures
   * without a face.
   */
  const takeOf = async (
    who: Signed,
    purpose: 'enrolment' | 'verification' | 'check-in' | 'check-out',
    cpf: string,
    photo: string,
  ) => {
    if (withFaces && face) {
      const { challengeId, image, frames } = await answeredChallenge(
        t.app,
        face,
        who.token,
        { purpose, cpf },
        photo,
      );
      return { challengeId, image, frames };
    }
    const { challengeId } = await requestChallenge(t.app, who.token, { purpose, cpf });
    return { challengeId, ...(await captures()) };
  };
  /**
   * A verification of `cpf` asked by unit A's examiner at A's post;
   * `password` is the person's own, when they are not the examiner asking
   * (never a face alone).
   */
  const faceTicket = async (
    cpf: string,
    photo: string,
    password?: string,
    purpose: 'check-in' | 'check-out' = 'check-in',
  ) => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/Auth/biometric-viewer-checkin',
      headers: a().viewer.auth,
      payload: {
        cpf,
        password,
        ...(await takeOf(a().viewer, purpose, cpf, photo)),
        uf: A,
        local: CHECK_IN_POST,
      },
    });
    return (answer.json() as { verificationId?: string }).verificationId ?? '';
  };
  /** An enrolment of `cpf` by unit A's ADMIN from a live take of `photo`. */
  const enrolInA = async (cpf: string, photo: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Create',
      headers: a().admin.auth,
      payload: { cpf, ...(await takeOf(a().admin, 'enrolment', cpf, photo)) },
    });

  /** A call of unit A's integration about the fixture's exam (`/…/:schedulingId/<path>`). */
  const toExam = (method: InjectOptions['method'], path: string, payload: () => unknown) =>
    asIntegration(method, (f) => `/api/Integration/exams/${f.schedulingId}/${path}`, payload);
  const renamePost = (identifier: string) =>
    asAdmin(
      'PUT',
      (f) => `/api/SchedulingLocal/${f.localId}`,
      () => ({ identifier, description: 'Posto renomeado', isActive: false }),
    );
  /** A change by unit A's ADMIN to a user: a fresh user of A, or the fixture's examiner. */
  const userChange = (path: string, payload: object) => {
    const change = (userId: (f: Fixture) => string) =>
      asAdmin(
        'PUT',
        (f) => `/api/User/${userId(f)}/${path}`,
        () => payload,
      );
    return {
      own: async () => {
        const target = await seedUser(t.app, { unit: A, role: 'VIEWER' });
        return change(() => target.id)(a());
      },
      foreign: change((f) => f.userId),
    };
  };

  /** A fresh examiner of unit A with an authenticator app, stopped after the password. */
  const appStepInA = async () => {
    const who = await seedSignedIn(t.app, { role: 'VIEWER', unit: A });
    const { secret } = await addTotp(t.app, who.auth);
    return { secret, step: await passwordStep(t.app, who.user.email) };
  };
  /** A fresh examiner of unit A with a passkey, stopped after the password. */
  const passkeyStepInA = async () => {
    const who = await seedSignedIn(t.app, { role: 'VIEWER', unit: A });
    const key = softPasskey(t.app.identity.config.secondFactor.origin);
    const options = await t.app.inject({
      method: 'POST',
      url: '/api/Auth/factors/passkey/options',
      headers: who.auth,
    });
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/Auth/factors',
      headers: who.auth,
      payload: { method: 'passkey', credential: key.register(options.json()) },
    });
    expect(added.statusCode, added.body).toBe(201);
    return { key, step: await passwordStep(t.app, who.user.email) };
  };
  /** An enrolment ticket of a fresh ADMIN of unit A (as a role that requires a factor gets it). */
  const enrolmentTicketInA = async () => {
    const who = await seedUser(t.app, { role: 'ADMIN', unit: A });
    return enrolmentTicketFor(t.app, who.id);
  };

  /**
   * Every write route: the call as unit A (`own`, aimed at A's resources) and,
   * for routes that name a resource, the same call aimed at another unit's
   * (`foreign`). `null` means the route names no resource of a unit.
   */
  const WRITES: Record<string, { own: Write; foreign: Write | null }> = {
    'POST /api/Auth': {
      own: () => ({
        method: 'POST',
        url: '/api/Auth',
        payload: { email: a().viewer.user.email, password: 'Trilha#Segura42' },
      }),
      foreign: null,
    },
    'POST /api/Auth/logout': {
      own: async () => {
        const session = await seedSignedIn(t.app, { role: 'VIEWER', unit: A });
        return { method: 'POST', url: '/api/Auth/logout', headers: session.auth };
      },
      foreign: null,
    },
    // Unit A's ADMIN proves again who they are (another role sending these credentials: user-mismatch).
    'POST /api/Auth/reauthenticate': {
      own: () => ({
        method: 'POST',
        url: '/api/Auth/reauthenticate',
        headers: a().admin.auth,
        payload: { email: a().admin.user.email, password: DEFAULT_PASSWORD },
      }),
      foreign: null,
    },
    'POST /api/Auth/sso/session': {
      // A hand-off as the provider's return leaves it, for unit A's examiner, in the browser that started it.
      own: async () => {
        const handoff = randomToken();
        const browser = randomToken();
        await t.database.db.execute(
          sql`insert into sso_logins (provider_id, state_hash, code_verifier, nonce, browser_hash, expires_at, answered_at, handoff_hash, user_id, handoff_expires_at)
              values (${a().providerId}, ${randomToken()}, 'v', 'n', ${hashToken(browser)}, now(), now(), ${hashToken(handoff)}, ${a().viewer.user.id}, now() + interval '1 minute')`,
        );
        return {
          method: 'POST',
          url: '/api/Auth/sso/session',
          headers: { cookie: `exame_sso=${browser}` },
          payload: { handoff },
        };
      },
      foreign: null,
    },
    // The step after a right password, by a fresh examiner of unit A with an authenticator app.
    'POST /api/Auth/mfa/verify': {
      own: async () => {
        const { secret, step } = await appStepInA();
        return {
          method: 'POST',
          url: '/api/Auth/mfa/verify',
          payload: { ticket: step.ticket, method: 'totp', code: nextTotpCode(secret) },
        };
      },
      foreign: null,
    },
    'POST /api/Auth/mfa/passkey/options': {
      own: async () => ({
        method: 'POST',
        url: '/api/Auth/mfa/passkey/options',
        payload: { ticket: (await passkeyStepInA()).step.ticket },
      }),
      foreign: null,
    },
    'POST /api/Auth/mfa/passkey': {
      own: async () => {
        const { key, step } = await passkeyStepInA();
        const options = await t.app.inject({
          method: 'POST',
          url: '/api/Auth/mfa/passkey/options',
          payload: { ticket: step.ticket },
        });
        return {
          method: 'POST',
          url: '/api/Auth/mfa/passkey',
          payload: { ticket: step.ticket, credential: key.assert(options.json()) },
        };
      },
      foreign: null,
    },
    'POST /api/Auth/mfa/enrol/totp': {
      own: async () => ({
        method: 'POST',
        url: '/api/Auth/mfa/enrol/totp',
        payload: { ticket: await enrolmentTicketInA() },
      }),
      foreign: null,
    },
    'POST /api/Auth/mfa/enrol/passkey/options': {
      own: async () => ({
        method: 'POST',
        url: '/api/Auth/mfa/enrol/passkey/options',
        payload: { ticket: await enrolmentTicketInA() },
      }),
      foreign: null,
    },
    'POST /api/Auth/mfa/enrol': {
      own: async () => {
        const ticket = await enrolmentTicketInA();
        const setup = await t.app.inject({
          method: 'POST',
          url: '/api/Auth/mfa/enrol/totp',
          payload: { ticket },
        });
        const { secret } = setup.json() as { secret: string };
        return {
          method: 'POST',
          url: '/api/Auth/mfa/enrol',
          payload: { ticket, method: 'totp', code: nextTotpCode(secret, 0) },
        };
      },
      foreign: null,
    },
    'POST /api/Auth/reauthenticate/passkey/options': {
      own: asViewer('POST', () => '/api/Auth/reauthenticate/passkey/options'),
      foreign: null,
    },
    'POST /api/Auth/factors/totp': {
      own: asViewer('POST', () => '/api/Auth/factors/totp'),
      foreign: null,
    },
    'POST /api/Auth/factors/passkey/options': {
      own: asViewer('POST', () => '/api/Auth/factors/passkey/options'),
      foreign: null,
    },
    'POST /api/Auth/factors': {
      own: async () => {
        const who = await seedSignedIn(t.app, { role: 'VIEWER', unit: A });
        const setup = await t.app.inject({
          method: 'POST',
          url: '/api/Auth/factors/totp',
          headers: who.auth,
        });
        const { secret } = setup.json() as { secret: string };
        return {
          method: 'POST',
          url: '/api/Auth/factors',
          headers: who.auth,
          payload: { method: 'totp', code: nextTotpCode(secret, 0) },
        };
      },
      foreign: null,
    },
    // One's own factor; aimed at another unit's: factor-not-found, and it stays.
    'DELETE /api/Auth/factors/:id': {
      own: async () => {
        const who = await seedSignedIn(t.app, { role: 'auditor', unit: A });
        const { factorId } = await addTotp(t.app, who.auth);
        return { method: 'DELETE', url: `/api/Auth/factors/${factorId}`, headers: who.auth };
      },
      foreign: asAdmin('DELETE', (f) => `/api/Auth/factors/${f.factorId}`),
    },
    'POST /api/Auth/recovery-codes': {
      own: async () => {
        const who = await seedSignedIn(t.app, { role: 'auditor', unit: A });
        await addTotp(t.app, who.auth);
        return { method: 'POST', url: '/api/Auth/recovery-codes', headers: who.auth };
      },
      foreign: null,
    },
    // Unit A's ADMIN clears the factors of a user of A; aimed at another unit's: USER_NOT_FOUND.
    'DELETE /api/User/:id/factors': {
      own: async () => {
        const who = await seedSignedIn(t.app, { role: 'auditor', unit: A });
        await addTotp(t.app, who.auth);
        return {
          method: 'DELETE',
          url: `/api/User/${who.user.id}/factors`,
          headers: a().admin.auth,
        };
      },
      foreign: asAdmin('DELETE', (f) => `/api/User/${f.auditor.user.id}/factors`),
    },
    // A proof through unit A's provider, for the session of the same examiner of A.
    'POST /api/Auth/sso/reauthenticate': {
      own: async () => {
        const handoff = randomToken();
        const browser = randomToken();
        await t.database.db.execute(
          sql`insert into sso_logins (provider_id, state_hash, code_verifier, nonce, browser_hash, expires_at, answered_at, handoff_hash, user_id, handoff_expires_at, purpose)
              values (${a().providerId}, ${randomToken()}, 'v', 'n', ${hashToken(browser)}, now(), now(), ${hashToken(handoff)}, ${a().viewer.user.id}, now() + interval '1 minute', 'reauth')`,
        );
        return {
          method: 'POST',
          url: '/api/Auth/sso/reauthenticate',
          headers: { ...a().viewer.auth, cookie: `exame_sso=${browser}` },
          payload: { handoff },
        };
      },
      foreign: null,
    },
    'POST /api/IdentityProvider': {
      own: asAdmin(
        'POST',
        () => '/api/IdentityProvider',
        () => providerBody(A),
      ),
      foreign: null,
    },
    'PUT /api/IdentityProvider/:id': both(
      asAdmin(
        'PUT',
        (f) => `/api/IdentityProvider/${f.providerId}`,
        () => ({ ...providerBody(A), name: 'Renomeado por DF' }),
      ),
    ),
    'DELETE /api/IdentityProvider/:id': {
      own: async () => {
        const extra = await t.app.inject({
          method: 'POST',
          url: '/api/IdentityProvider',
          headers: a().admin.auth,
          payload: providerBody(A),
        });
        return {
          method: 'DELETE',
          url: `/api/IdentityProvider/${(extra.json() as { id: string }).id}`,
          headers: a().admin.auth,
        };
      },
      foreign: asAdmin('DELETE', (f) => `/api/IdentityProvider/${f.providerId}`),
    },
    'POST /api/User/reset/:value': {
      own: () => ({ method: 'POST', url: `/api/User/reset/${a().viewer.user.email}` }),
      foreign: null,
    },
    'POST /api/User/verifyEmail/:value': {
      own: async () => {
        const fresh = await seedUser(t.app, { unit: A, password: null });
        return { method: 'POST', url: `/api/User/verifyEmail/${fresh.email}` };
      },
      foreign: null,
    },
    'PATCH /api/User/password': {
      own: async () => {
        const fresh = await seedUser(t.app, { unit: A, password: null });
        await t.app.inject({ method: 'POST', url: `/api/User/verifyEmail/${fresh.email}` });
        const link = (await lastMailTo(t.app, fresh.email))?.link;
        return {
          method: 'PATCH',
          url: '/api/User/password',
          payload: { cpf: fresh.cpf, token: link?.token, password: 'Nova#Senha2026' },
        };
      },
      foreign: null,
    },
    // Unit A's own target is a fresh user of A; the foreign one, the other unit's examiner.
    'PUT /api/User/:id/enableDisable': userChange('enableDisable', { registerStatus: 'disabled' }),
    'PUT /api/User/:id/role': userChange('role', { role: 'ROOM_INSPECTOR' }),
    'POST /api/User/admin': {
      own: asAdmin(
        'POST',
        () => '/api/User/admin',
        () => ({
          name: 'Criada Pelo Admin',
          email: `criada.${Date.now()}@gmail.com`,
          cpf: nextCpf(),
          role: 'auditor',
          federativeUnit: 'SP',
        }),
      ),
      foreign: null,
    },
    'POST /api/User': {
      own: asAdmin(
        'POST',
        () => '/api/User',
        () => ({
          name: 'Demo Externa',
          email: `demo.${Date.now()}@gmail.com`,
          cpf: nextCpf(),
          role: 'auditor',
          federativeUnit: 'DEMO',
        }),
      ),
      foreign: null,
    },
    // Actor and unit come from the session: nothing in the body names another unit.
    'POST /api/ActivityLog/events': {
      own: asAdmin(
        'POST',
        () => '/api/ActivityLog/events',
        () => ({
          events: [webEvent({ details: { federativeUnit: 'SP' } })],
        }),
      ),
      foreign: null,
    },
    'POST /api/SchedulingLocal': {
      own: asAdmin(
        'POST',
        () => '/api/SchedulingLocal',
        () => ({
          identifier: 'SP.POSTO77',
          description: 'Posto com o identificador de outra unidade',
          federativeUnit: 'SP',
        }),
      ),
      foreign: null,
    },
    'POST /api/DisqualificationReason': {
      own: asAdmin(
        'POST',
        () => '/api/DisqualificationReason',
        () => ({ code: 'D78', text: 'Justificativa nova da unidade A.', federativeUnit: 'SP' }),
      ),
      foreign: null,
    },
    'PUT /api/DisqualificationReason/:id': {
      own: asAdmin(
        'PUT',
        (f) => `/api/DisqualificationReason/${f.reasonId}`,
        () => ({ text: 'Justificativa reescrita.', isActive: false }),
      ),
      foreign: asAdmin(
        'PUT',
        (f) => `/api/DisqualificationReason/${f.reasonId}`,
        () => ({
          code: 'D77',
          text: 'Justificativa reescrita por outra unidade.',
          isActive: false,
        }),
      ),
    },
    // Unit A's auditor takes its exam, then gives it back.
    'POST /api/Audit/:examId/claim': both(toAudit('claim')),
    'POST /api/Audit/:examId/release': both(toAudit('release')),
    // Unit A's auditor disqualifies its exam (the two-person rule makes it wait) ...
    'POST /api/Audit/:examId/decision': {
      own: async (f) => {
        await claim(f.auditExamId);
        const reason = await t.app.inject({
          method: 'POST',
          url: '/api/DisqualificationReason',
          headers: a().admin.auth,
          payload: { code: 'D79', text: 'Justificativa ativa da unidade A.' },
        });
        return {
          method: 'POST',
          url: `/api/Audit/${f.auditExamId}/decision`,
          headers: a().auditor.auth,
          payload: {
            action: 'disqualify',
            reasonId: (reason.json() as { id: string }).id,
            note: 'Consulta a material durante a prova.',
          },
        };
      },
      foreign: toAudit('decision', () => ({ action: 'release' })),
    },
    // ... a second auditor of A confirms it ...
    'POST /api/Audit/:examId/confirmation': {
      own: async (f) => {
        const second = await seedSignedIn(t.app, { role: 'auditor', unit: A });
        await claim(f.auditExamId, second.auth);
        return {
          method: 'POST',
          url: `/api/Audit/${f.auditExamId}/confirmation`,
          headers: second.auth,
          payload: { accept: true },
        };
      },
      foreign: toAudit('confirmation', () => ({ accept: true })),
    },
    // ... its ADMIN reopens it ...
    'POST /api/Audit/:examId/reopen': {
      own: toAudit(
        'reopen',
        () => ({ reason: 'Reabertura de teste pela administração.' }),
        asAdmin,
      ),
      foreign: toAudit('reopen', () => ({ reason: 'Reabertura por outra unidade.' }), asAdmin),
    },
    // ... and its auditor, holding it again, marks a capture of it.
    'PUT /api/Audit/:examId/photos/:photoId/mark': {
      own: async (f) => {
        const photo = await t.app.inject({
          method: 'POST',
          url: `/api/Integration/exams/${A}-AUDITORIA/photos`,
          headers: { 'x-api-key': a().key },
          payload: await photoPayload(11, '2026-11-20T10:07:00-03:00'),
        });
        await claim(f.auditExamId);
        return {
          method: 'PUT',
          url: `/api/Audit/${f.auditExamId}/photos/${(photo.json() as { id: string }).id}/mark`,
          headers: a().auditor.auth,
          payload: { verdict: 'incompatible' },
        };
      },
      foreign: async (f) => {
        // A capture of unit A's exam, named under another unit's exam.
        const [photo] = await selectRows<{ id: string }>(
          t.database.db,
          sql`select id from exam_photos where exam_id = ${a().auditExamId} and kind = 'capture' limit 1`,
        );
        return {
          method: 'PUT',
          url: `/api/Audit/${f.auditExamId}/photos/${photo?.id ?? '00000000-0000-4000-8000-000000000000'}/mark`,
          headers: a().auditor.auth,
          payload: { verdict: 'compatible' },
        };
      },
    },
    // A case of possible fraud of unit A: sent to audit, and closed (a fresh case each time).
    'POST /api/FraudCase/:id/send-to-audit': {
      own: asAuditor('POST', (f) => `/api/FraudCase/${f.fraudCaseId}/send-to-audit`),
      foreign: asAuditor('POST', (f) => `/api/FraudCase/${f.fraudCaseId}/send-to-audit`),
    },
    'POST /api/FraudCase/:id/close': {
      own: async (f) => ({
        method: 'POST',
        url: `/api/FraudCase/${await openFraudCase(A, [f.auditExamId, f.certificateExamId])}/close`,
        headers: a().auditor.auth,
        payload: { outcome: 'dismissed', note: 'Conferido: pessoas diferentes.' },
      }),
      foreign: asAuditor(
        'POST',
        (f) => `/api/FraudCase/${f.fraudCaseId}/close`,
        () => ({ outcome: 'confirmed', note: 'Tentativa de outra unidade.' }),
      ),
    },
    // Unit A's ADMIN issues the certificate of its approved exam (an examiner only for an exam
    // whose room they held while it ran: certificates.test.ts); the integration gets it again.
    'POST /api/Certificate/:examId': both(
      asAdmin('POST', (f) => `/api/Certificate/${f.certificateExamId}`),
    ),
    'POST /api/Integration/exams/:schedulingId/certificate': {
      own: () => ({
        method: 'POST',
        url: `/api/Integration/exams/${A}-CERTIFICADO/certificate`,
        headers: { 'x-api-key': a().key },
      }),
      foreign: (f) => ({
        method: 'POST',
        url: `/api/Integration/exams/${f === units.get('SP') ? 'SP' : 'DEMO'}-CERTIFICADO/certificate`,
        headers: { 'x-api-key': a().key },
      }),
    },
    'PUT /api/SchedulingLocal/:id': {
      own: renamePost(`${A}.POSTO77`),
      foreign: renamePost('SP.POSTO77'),
    },
    'POST /api/Exam/import': {
      own: () => ({
        method: 'POST',
        url: '/api/Exam/import',
        headers: { ...a().admin.auth, 'content-type': 'text/csv' },
        payload: [
          'schedulingId;candidateName;candidateCpf;schedulingDate;schedulingLocal',
          // The same schedulingId as another unit's exam: each unit has its own.
          'SP-MESMO-ID;Candidato Importado;529.982.247-25;20/11/2026 10:00;SP.POSTO77-S1',
        ].join('\n'),
      }),
      foreign: null,
    },
    'POST /api/Integration/keys': {
      own: asAdmin(
        'POST',
        () => '/api/Integration/keys',
        () => ({ name: 'Outra', federativeUnit: 'SP' }),
      ),
      foreign: null,
    },
    'DELETE /api/Integration/keys/:id': {
      own: async () => {
        const extra = await createApiKeyFor(t.app, a().admin.auth, 'Descartável');
        return {
          method: 'DELETE',
          url: `/api/Integration/keys/${extra.apiKey.id}`,
          headers: a().admin.auth,
        };
      },
      foreign: asAdmin('DELETE', (f) => `/api/Integration/keys/${f.keyId}`),
    },
    'POST /api/Integration/exams': {
      own: asIntegration(
        'POST',
        () => '/api/Integration/exams',
        () => ({
          exams: [examPayload({ schedulingId: 'DEMO-MESMO-ID', federativeUnit: 'DEMO' })],
        }),
      ),
      foreign: null,
    },
    'PATCH /api/Integration/exams/:schedulingId/status': both(
      asIntegration(
        'PATCH',
        (f) => `/api/Integration/exams/${f.schedulingId}/status`,
        () => ({ status: 'done', result: 'in_analysis' }),
      ),
    ),
    'POST /api/Integration/exams/:schedulingId/occurrences': {
      own: toExam('POST', 'occurrences', () => occurrencePayload('iso-1')),
      foreign: toExam('POST', 'occurrences', () => occurrencePayload('iso-2')),
    },
    'POST /api/Integration/exams/:schedulingId/photos': {
      own: toExam('POST', 'photos', () => photoPayload()),
      foreign: toExam('POST', 'photos', () => photoPayload(9)),
    },
    'PUT /api/Integration/exams/:schedulingId/reference-photo': {
      own: toExam('PUT', 'reference-photo', async () => ({
        image: (await sampleJpeg(240, 4)).toString('base64'),
      })),
      foreign: toExam('PUT', 'reference-photo', async () => ({
        image: (await sampleJpeg(240, 5)).toString('base64'),
      })),
    },
    'POST /api/BiopassID/Challenge': {
      own: asViewer(
        'POST',
        () => '/api/BiopassID/Challenge',
        () => ({ purpose: 'check-in', cpf: a().viewer.user.cpf }),
      ),
      // A challenge to capture another unit's examiner on record: not found.
      foreign: async (f) => {
        const [viewer] = await selectRows<{ id: string }>(
          t.database.db,
          sql`select id from check_in_viewers where check_in_id = ${f.checkInId}`,
        );
        return {
          method: 'POST',
          url: '/api/BiopassID/Challenge',
          headers: a().viewer.auth,
          payload: { purpose: 'check-out', checkInViewerId: viewer?.id },
        };
      },
    },
    'POST /api/BiopassID/Create': {
      own: asAdmin(
        'POST',
        () => '/api/BiopassID/Create',
        async () => {
          enrolledCpf = a().viewer.user.cpf;
          return {
            cpf: enrolledCpf,
            ...(await takeOf(a().admin, 'enrolment', enrolledCpf, 'p01-1.jpg')),
          };
        },
      ),
      foreign: asAdmin(
        'POST',
        () => '/api/BiopassID/Create',
        async (f) => ({ cpf: f.userCpf, ...(await captures()) }),
      ),
    },
    'POST /api/BiopassID/Verify': {
      own: asAuditor(
        'POST',
        () => '/api/BiopassID/Verify',
        async () => ({
          cpf: enrolledCpf,
          ...(await takeOf(a().auditor, 'verification', enrolledCpf, 'p01-5.jpg')),
          uf: A,
        }),
      ),
      foreign: asAuditor(
        'POST',
        () => '/api/BiopassID/Verify',
        async (f) => ({ cpf: f.userCpf, ...(await captures()), uf: 'SP' }),
      ),
    },
  };

  /** The examiners of unit A's check-in record (none when it cannot be read). */
  const recordViewers = async () => {
    const record = await t.app.inject({
      method: 'GET',
      url: `/api/SchedulingLocalCheckIn/findCheckInById/${recordId}`,
      headers: a().viewer.auth,
    });
    type Viewer = { id: string; userId: string; checkOutDate: string | null };
    return record.statusCode === 200 ? (record.json() as { viewers: Viewer[] }).viewers : [];
  };
  /** An examiner's password confirmation for unit A's record: its proctoring token. */
  const confirmInRecord = async (email: string | undefined) => {
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/Auth/viewer-checkin',
      headers: a().viewer.auth,
      payload: { email, password: DEFAULT_PASSWORD, checkInId: recordId },
    });
    return (confirmed.json() as { proctoringToken?: string }).proctoringToken;
  };
  const forceClose = (checkInId: (f: Fixture) => string | null, reason: string) =>
    asAdmin(
      'POST',
      () => '/api/SchedulingLocalCheckIn/forceClose',
      (f) => ({ checkInId: checkInId(f), reason }),
    );
  const checkOut = (payload: (f: Fixture) => unknown) =>
    asViewer('POST', () => '/api/SchedulingLocalCheckIn/checkOut', payload);
  const addStation = (code: string, position: number) =>
    asAdmin(
      'POST',
      (f) => `/api/ExamRoom/${f.roomId}/stations`,
      () => ({ code, position }),
    );
  /** A call of unit A's ADMIN about the exam on the fixture's room. */
  const toRoomExam = (path: string, payload: () => unknown) =>
    asAdmin('POST', (f) => `/api/ExamRoom/${f.roomId}/exams/${f.roomExamId}/${path}`, payload);

  Object.assign(WRITES, {
    'POST /api/Auth/viewer-checkin': {
      own: async () => {
        // The post of unit A's room (POSTO77 is deactivated by an entry above).
        await t.app.inject({
          method: 'POST',
          url: '/api/SchedulingLocal',
          headers: a().admin.auth,
          payload: { identifier: CHECK_IN_POST, description: 'Posto da sala' },
        });
        second = await seedUser(t.app, { unit: A, role: 'ROOM_INSPECTOR' });
        return {
          method: 'POST',
          url: '/api/Auth/viewer-checkin',
          headers: a().viewer.auth,
          payload: {
            email: second.email,
            password: DEFAULT_PASSWORD,
            schedulingLocal: CHECK_IN_POST,
          },
        };
      },
      foreign: asViewer(
        'POST',
        () => '/api/Auth/viewer-checkin',
        (f) => ({
          email: f.viewer.user.email,
          password: DEFAULT_PASSWORD,
          schedulingLocal: CHECK_IN_POST,
        }),
      ),
    },
    'POST /api/Auth/biometric-viewer-checkin': {
      own: asViewer(
        'POST',
        () => '/api/Auth/biometric-viewer-checkin',
        async () => ({
          cpf: enrolledCpf,
          ...(await takeOf(a().viewer, 'check-in', enrolledCpf, 'p01-5.jpg')),
          uf: A,
          local: CHECK_IN_POST,
        }),
      ),
      foreign: asViewer(
        'POST',
        () => '/api/Auth/biometric-viewer-checkin',
        async (f) => ({ cpf: f.userCpf, ...(await captures()), uf: A, local: CHECK_IN_POST }),
      ),
    },
    'POST /api/SchedulingLocalCheckIn/checkIn': {
      own: async () => {
        ticket = await faceTicket(enrolledCpf, 'p01-5.jpg');
        return {
          method: 'POST',
          url: '/api/SchedulingLocalCheckIn/checkIn',
          headers: a().viewer.auth,
          payload: {
            viewers: [{ cpf: enrolledCpf, verificationId: ticket || undefined }],
            schedulingLocal: CHECK_IN_POST,
          },
        };
      },
      foreign: asViewer(
        'POST',
        () => '/api/SchedulingLocalCheckIn/checkIn',
        (f) => ({
          viewers: [{ cpf: a().viewer.user.cpf }, { cpf: f.userCpf }],
          schedulingLocal: `${f === units.get('SP') ? 'SP' : 'DEMO'}.POSTO77`,
        }),
      ),
    },
    'PUT /api/SchedulingLocalCheckIn/update-checkIn/:id': {
      own: async () => {
        const open = await t.app.inject({
          method: 'GET',
          url: `/api/SchedulingLocalCheckIn/findCheckIn?viewerCpf=${enrolledCpf}&schedulingLocal=${CHECK_IN_POST}`,
          headers: a().viewer.auth,
        });
        if (open.statusCode === 200) recordId = (open.json() as { id: string }).id;
        // Examiner 2 (confirmed by password above) enrols and enters by face.
        if (withFaces && second) await enrolInA(second.cpf, 'p02-4.jpg');
        const verificationId = second
          ? await faceTicket(second.cpf, 'p02-1.jpg', DEFAULT_PASSWORD)
          : '';
        // Examiner 2's confirmation is for this record only, used once.
        const proctoringToken = await confirmInRecord(second?.email);
        return {
          method: 'PUT',
          url: `/api/SchedulingLocalCheckIn/update-checkIn/${recordId}`,
          headers: a().viewer.auth,
          payload: { add: { proctoringToken, verificationId: verificationId || undefined } },
        };
      },
      foreign: asAdmin(
        'PUT',
        (f) => `/api/SchedulingLocalCheckIn/update-checkIn/${f.checkInId}`,
        (f) => ({ removeViewerId: f.userId }),
      ),
    },
    'POST /api/SchedulingLocalCheckIn/checkOut': {
      own: checkOut(async () => {
        const viewers = await recordViewers();
        secondViewerId =
          viewers.find((viewer) => viewer.userId === second?.id)?.id ?? secondViewerId;
        const verificationId = second
          ? await faceTicket(second.cpf, 'p02-1.jpg', DEFAULT_PASSWORD, 'check-out')
          : '';
        return {
          checkInId: recordId,
          viewerId: secondViewerId,
          verificationId: verificationId || undefined,
        };
      }),
      foreign: checkOut((f) => ({ checkInId: f.checkInId })),
    },
    'POST /api/SchedulingLocalCheckIn/transfer': {
      own: async () => {
        // The room passes from unit A's examiner to a third examiner of A (password and face).
        const third = await seedUser(t.app, { unit: A, role: 'ROOM_INSPECTOR' });
        if (withFaces) await enrolInA(third.cpf, 'p02-4.jpg');
        const proctoringToken = await confirmInRecord(third.email);
        const verificationId = await faceTicket(third.cpf, 'p02-1.jpg', DEFAULT_PASSWORD);
        const viewers = await recordViewers();
        const from =
          viewers.find((viewer) => viewer.userId === a().viewer.user.id && !viewer.checkOutDate)
            ?.id ?? secondViewerId;
        return {
          method: 'POST',
          url: '/api/SchedulingLocalCheckIn/transfer',
          headers: a().viewer.auth,
          payload: {
            checkInId: recordId,
            fromViewerId: from,
            to: { proctoringToken, verificationId: verificationId || undefined },
          },
        };
      },
      foreign: asAdmin(
        'POST',
        () => '/api/SchedulingLocalCheckIn/transfer',
        (f) => ({ checkInId: f.checkInId, fromViewerId: f.userId, to: { cpf: f.userCpf } }),
      ),
    },
    'POST /api/SchedulingLocalCheckIn/forceClose': {
      own: forceClose(() => recordId, 'Encerramento de teste pela administração.'),
      foreign: forceClose((f) => f.checkInId, 'Tentativa de outra unidade sobre a sala.'),
    },
    'POST /api/ExamRoom': {
      own: asAdmin(
        'POST',
        () => '/api/ExamRoom',
        () => ({
          schedulingLocal: CHECK_IN_POST,
          code: 'S2',
          name: 'Sala nova',
          federativeUnit: 'SP',
          stations: [{ code: 'Estação 01', position: 1 }],
        }),
      ),
      // Unit A names posts by identifier only; naming another unit's post is refused in
      // exam-rooms.test.ts (unit A may itself have a post called SP.POSTO77, see above).
      foreign: null,
    },
    'PUT /api/ExamRoom/:id': both(
      asAdmin(
        'PUT',
        (f) => `/api/ExamRoom/${f.roomId}`,
        () => ({ name: 'Sala renomeada', isActive: false }),
      ),
    ),
    'POST /api/ExamRoom/:id/stations': {
      own: addStation('Estação 02', 2),
      foreign: addStation('Estação 03', 3),
    },
    'PUT /api/ExamRoom/:id/stations/:stationId': both(
      asAdmin(
        'PUT',
        (f) => `/api/ExamRoom/${f.roomId}/stations/${f.stationId}`,
        () => ({ position: 5, isActive: false }),
      ),
    ),
    'POST /api/ExamRoom/:id/exams/:examId/action': both(
      toRoomExam('action', () => ({ action: 'absence' })),
    ),
    'POST /api/ExamRoom/:id/exams/:examId/occurrences': {
      own: toRoomExam('occurrences', async () => ({
        type: 'terceiro',
        description: 'Ocorrência registrada no quadro',
        photo: (await sampleJpeg(200, 3)).toString('base64'),
      })),
      foreign: toRoomExam('occurrences', () => ({
        type: 'terceiro',
        description: 'Ocorrência de outra unidade',
      })),
    },
    // Last: it lets unit A admit by face alone, which no write before it may rely on.
    'PUT /api/FederativeUnit/settings': {
      // The unit is the session's: a unit named in the body is ignored (every unit's row is compared).
      own: asAdmin(
        'PUT',
        () => '/api/FederativeUnit/settings',
        () => ({ faceAloneAllowed: true, federativeUnit: 'SP', uf: 'SP' }),
      ),
      foreign: null,
    },
  } satisfies Record<string, { own: Write; foreign: Write | null }>);

  /**
   * The demonstration flows exist in the DEMO unit only (any other unit gets
   * 403 DEMO_UNIT_ONLY), so unit A cannot make them: `own` is the call of
   * DEMO's ADMIN, in DEMO, and `foreign(f)` the same call by the ADMIN of the
   * unit of `f`. DEMO being one of OTHERS, they have their own test below
   * (DEMO's writes leave A and SP untouched; A's and SP's are refused and
   * leave DEMO untouched), and the test of unit A's writes passes over them.
   */
  const demo = () => units.get(DEMO_UNIT)!;
  const demoCpf = nextCpf();
  const asDemoAdmin =
    (
      method: InjectOptions['method'],
      url: string,
      payload?: (admin: Signed) => Promise<unknown> | unknown,
    ): ((admin: Signed) => Promise<InjectOptions>) =>
    async (admin) => ({
      method,
      url,
      headers: admin.auth,
      ...(payload ? { payload: (await payload(admin)) as InjectOptions['payload'] } : {}),
    });
  /**
   * A demonstration take: DEMO's ADMIN answers a challenge of its own;
   * another unit's ADMIN is refused at the door, so none is asked for it
   * (a challenge would be a row of that unit).
   */
  const demoTake = async (admin: Signed, purpose: 'enrolment' | 'verification', photo: string) =>
    admin === demo().admin ? takeOf(admin, purpose, demoCpf, photo) : captures();
  const demoCalls = {
    'POST /api/Demo/candidates': asDemoAdmin('POST', '/api/Demo/candidates', () => ({
      name: 'Candidata de Demonstração',
      cpf: demoCpf,
      birthDate: '1990-05-17',
    })),
    'PUT /api/Demo/candidates/:cpf/contact': asDemoAdmin(
      'PUT',
      `/api/Demo/candidates/${demoCpf}/contact`,
      () => ({
        email: 'candidata.demo@exemplo.com.br',
        phone: '(61) 99999-1234',
        consent: true,
        consentVersion: BIOMETRIC_CONSENT_VERSION,
      }),
    ),
    'POST /api/Demo/candidates/:cpf/enrol': asDemoAdmin(
      'POST',
      `/api/Demo/candidates/${demoCpf}/enrol`,
      (admin) => demoTake(admin, 'enrolment', 'p01-1.jpg'),
    ),
    'POST /api/Demo/candidates/:cpf/verify': asDemoAdmin(
      'POST',
      `/api/Demo/candidates/${demoCpf}/verify`,
      (admin) => demoTake(admin, 'verification', 'p01-5.jpg'),
    ),
    'DELETE /api/Demo/data': asDemoAdmin('DELETE', '/api/Demo/data'),
  };
  const DEMO_WRITES = Object.fromEntries(
    Object.entries(demoCalls).map(([route, call]) => [
      route,
      { own: () => call(demo().admin), foreign: (f: Fixture) => call(f.admin) },
    ]),
  ) satisfies Record<string, { own: Write; foreign: Write }>;
  Object.assign(WRITES, DEMO_WRITES);

  /** Calls that need the face engine and enrolled faces to succeed (without them: any 4xx). */
  const FACE_ROUTES = [
    'Biopass',
    'biometric-viewer-checkin',
    'SchedulingLocalCheckIn/checkIn',
    'update-checkIn',
    'checkOut',
    'transfer',
    'forceClose',
  ];

  it('every write route has an entry here', () => {
    const writes = t.app.registeredRoutes
      .filter((route) => !isPluginRoute(route.url) && !['GET', 'HEAD'].includes(route.method))
      .map((route) => `${route.method} ${route.url}`);
    expect(writes.filter((route) => !(route in WRITES))).toEqual([]);
  });

  it("unit A's writes, to its own resources and aimed at others', leave every other unit untouched and unseen", async () => {
    const before = new Map<
      string,
      { rows: Record<string, string>; seen: Record<string, string> }
    >();
    for (const unit of OTHERS)
      before.set(unit, { rows: await fingerprint(unit), seen: await views(unit) });

    const outcomes: string[] = [];
    for (const [route, write] of Object.entries(WRITES)) {
      if (route in DEMO_WRITES) continue; // DEMO's own: see the next test.
      const own = await t.app.inject(await write.own(a()));
      outcomes.push(`${route} própria -> ${own.statusCode}`);
      // The call as unit A must really have done something, or this test proves nothing.
      expect(own.statusCode, `${route}: ${own.body}`).toBeLessThan(
        withFaces || !FACE_ROUTES.some((part) => route.includes(part)) ? 300 : 500,
      );
      await t.app.identity.linkRequests.run();
      if (write.foreign) {
        for (const unit of OTHERS) {
          const foreign = await t.app.inject(await write.foreign(units.get(unit)!));
          outcomes.push(`${route} ${unit} -> ${foreign.statusCode}`);
          expect(
            foreign.statusCode,
            `${route} contra ${unit}: ${foreign.body}`,
          ).toBeGreaterThanOrEqual(400);
          expect(foreign.statusCode, `${route} contra ${unit}`).toBeLessThan(500);
        }
      }
    }

    for (const unit of OTHERS) {
      const after = { rows: await fingerprint(unit), seen: await views(unit) };
      expect(after.rows, `linhas de ${unit}`).toEqual(before.get(unit)?.rows);
      expect(after.seen, `o que ${unit} vê`).toEqual(before.get(unit)?.seen);
    }
    expect(other().schedulingId).toBe('SP-ISOLAMENTO-1');
    expect(outcomes.length).toBeGreaterThan(Object.keys(WRITES).length);
  }, 120_000);

  it("DEMO's demonstration writes leave every other unit untouched; other units' ADMINs are refused and leave DEMO untouched", async () => {
    const elsewhere = [A, 'SP'];
    const snapshot = async (unit: string) => ({
      rows: await fingerprint(unit),
      seen: await views(unit),
    });
    const before = new Map<string, Awaited<ReturnType<typeof snapshot>>>();
    for (const unit of [...elsewhere, DEMO_UNIT]) before.set(unit, await snapshot(unit));

    for (const [route, write] of Object.entries(DEMO_WRITES)) {
      for (const unit of elsewhere) {
        const foreign = await t.app.inject(await write.foreign(units.get(unit)!));
        expect(foreign.statusCode, `${route} por ${unit}: ${foreign.body}`).toBe(403);
        expect((foreign.json() as { code: string }).code, route).toBe('DEMO_UNIT_ONLY');
      }
    }
    const demoAfterRefusals = await snapshot(DEMO_UNIT);
    expect(demoAfterRefusals.rows, `linhas de ${DEMO_UNIT}`).toEqual(before.get(DEMO_UNIT)?.rows);
    expect(demoAfterRefusals.seen, `o que ${DEMO_UNIT} vê`).toEqual(before.get(DEMO_UNIT)?.seen);

    for (const [route, write] of Object.entries(DEMO_WRITES)) {
      const own = await t.app.inject(await write.own());
      // DEMO's ADMIN must really have done something, or this test proves nothing.
      expect(own.statusCode, `${route}: ${own.body}`).toBeLessThan(
        withFaces || !/enrol|verify/.test(route) ? 300 : 500,
      );
    }
    expect((await fingerprint(DEMO_UNIT)).demo_candidates).toBe('');
    expect((await fingerprint(DEMO_UNIT)).activity_log).not.toEqual(
      before.get(DEMO_UNIT)?.rows.activity_log,
    );
    for (const unit of elsewhere) {
      const after = await snapshot(unit);
      expect(after.rows, `linhas de ${unit}`).toEqual(before.get(unit)?.rows);
      expect(after.seen, `o que ${unit} vê`).toEqual(before.get(unit)?.seen);
    }
  }, 120_000);
  it("each role of unit A, a disabled user and an anonymous caller: the route's roles pass, the others get 401/403, and no other unit changes", async () => {
    const before = new Map<string, Record<string, string>>();
    for (const unit of OTHERS) before.set(unit, await fingerprint(unit));
    const policies = new Map(
      t.app.registeredRoutes.map((route) => [`${route.method} ${route.url}`, route.access]),
    );
    type Caller = Role | 'disabled' | 'anonymous';
    const callers: Caller[] = [...ROLES, 'disabled', 'anonymous'];
    /** Sessions of each caller of unit A. */
    const signInAll = async () => {
      const headers = new Map<Caller, Record<string, string>>();
      for (const role of ROLES)
        headers.set(role, (await seedSignedIn(t.app, { role, unit: A })).auth);
      const disabled = await seedSignedIn(t.app, { role: 'ADMIN', unit: A });
      await t.database.db.execute(
        sql`update users set register_status = 'disabled' where id = ${disabled.user.id}`,
      );
      headers.set('disabled', disabled.auth);
      headers.set('anonymous', {});
      return headers;
    };
    let headers = await signInAll();
    let checked = 0;
    for (const [route, write] of Object.entries(WRITES)) {
      if (route in DEMO_WRITES) continue;
      const access = policies.get(route);
      if (!Array.isArray(access)) continue; // public, integration key or operator: not a role's.
      const endsSessions = /logout|password/i.test(route);
      const allowed = access as readonly string[];
      // The face engine's routes: the allowed roles ran them above; here only the refusals.
      const isFaceRoute = FACE_ROUTES.some((part) => route.includes(part));
      // A face route's request carries a live take (seconds of the engine's work): made
      // once and sent by each refused caller; a refusal by the policy consumes nothing.
      let faceRequest: InjectOptions | undefined;
      for (const caller of callers) {
        if (isFaceRoute && allowed.includes(caller)) continue;
        const request = isFaceRoute ? (faceRequest ??= await write.own(a())) : await write.own(a());
        const { authorization: _dropped, ...rest } = (request.headers ?? {}) as Record<
          string,
          string
        >;
        // A logout or a password change ends the caller's own session: fresh ones each time.
        if (endsSessions) headers = await signInAll();
        const response = await t.app.inject({
          ...request,
          headers: { ...rest, ...headers.get(caller) },
        });
        const code = response.body
          ? (JSON.parse(response.body) as { code?: string } | null)?.code
          : undefined;
        const label = `${route} como ${caller}: ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, label).toBeLessThan(500);
        if (caller === 'anonymous' || caller === 'disabled') {
          expect(response.statusCode, label).toBe(401);
        } else if (allowed.includes(caller)) {
          // Past the policy: what follows is the route's own rule (it may still refuse).
          expect(['UNAUTHORIZED', 'FORBIDDEN'], label).not.toContain(code);
        } else {
          expect(response.statusCode, label).toBe(403);
          expect(code, label).toBe('FORBIDDEN');
        }
        checked += 1;
      }
      await t.app.identity.linkRequests.run();
    }
    expect(checked).toBeGreaterThan(callers.length * 10);
    for (const unit of OTHERS) {
      expect(await fingerprint(unit), `linhas de ${unit}`).toEqual(before.get(unit));
    }
  }, 300_000);

  it('a face challenge of one unit cannot be used by another, either way: FACE_CHALLENGE_INVALID, and it stays unused', async () => {
    const sp = other();
    // Enrolments in each unit, each presenting the challenge the other unit issued.
    const pairs: Array<[Signed, Fixture, Signed, string]> = [
      [a().admin, sp, sp.admin, sp.userCpf],
      [sp.admin, a(), a().admin, a().auditor.user.cpf],
    ];
    for (const [issuer, user, caller, cpf] of pairs) {
      const { challengeId } = await requestChallenge(t.app, issuer.token, {
        purpose: 'enrolment',
        cpf,
      });
      const before = { A: await fingerprint(A), SP: await fingerprint('SP') };
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Create',
        headers: caller.auth,
        payload: { cpf, challengeId, ...(await captures()) },
      });
      expect(response.statusCode, response.body).toBe(422);
      expect((response.json() as { code: string }).code).toBe('FACE_CHALLENGE_INVALID');
      expect(await fingerprint(A), `linhas de ${A}`).toEqual(before.A);
      expect(await fingerprint('SP'), 'linhas de SP').toEqual(before.SP);
      const [row] = await selectRows<{ used_at: Date | null }>(
        t.database.db,
        sql`select used_at from face_challenges where id = ${challengeId}`,
      );
      expect(row, user.schedulingId).toEqual({ used_at: null });
    }
  });
});
