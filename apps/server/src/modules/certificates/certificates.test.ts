/**
 * Certificates of finished exams, on both database tiers: what a certificate
 * states (the candidate, the room local, the examiners of the room's
 * check-in, the auditor), issuing once per exam (also when two issue at the
 * same moment), the public check by code (only what a third party may see;
 * forgiving typing; the federal-district variant; the per-address limit),
 * revocation in the audit's transaction, the missing room local (spec 5),
 * the PDF and the QR code read back, and tenant isolation.
 */
import {
  CERTIFICATE_ERRORS,
  dayInZone,
  MISSING_ROOM_LOCAL_MESSAGE,
  type Certificate,
  type CertificateErrorCode,
} from '@exame/shared';
import { sql } from 'drizzle-orm';
import jsQR from 'jsqr';
import { PDFParse } from 'pdf-parse';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { RATE_LIMITS } from '../../db/rate-limit';
import { createApiKeyFor, examPayload, postExams } from '../../../test/exams';
import { buildTestApp, testConfig, testDatabaseUrl, type TestApp } from '../../../test/helper';
import { seedSignedIn, signedSender } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

const PUBLIC_APP_URL = 'https://provas.detran.teste.gov.br';
const CPF = '529.982.247-25';
const MASKED = '***.982.247-**';
const MASKED_CPF = /^\*\*\*\.\d{3}\.\d{3}-\*\*$/;
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const PUBLIC_FIELDS = ['code', 'issuedAt', 'revokedAt', 'revokedReason', 'status', 'verifyUrl'];
const PUBLIC_CONTENT = [
  'candidateCpf',
  'candidateName',
  'examDate',
  'federativeUnit',
  'postName',
  'result',
  'roomLocal',
  'schedulingId',
  'unitName',
];

/** An error of the certificate catalogue, with its pt-BR text. */
function expectCertificateError(answer: Reply, code: CertificateErrorCode) {
  expect(answer.statusCode, answer.body).toBe(CERTIFICATE_ERRORS[code].status);
  expect(answer.json()).toMatchObject({ code, Error: CERTIFICATE_ERRORS[code].message });
}

/** The text of a PDF, as a reader (or a screen reader) gets it. */
async function pdfText(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** The images drawn in a PDF, as PNG data URLs. */
async function pdfImages(pdf: Buffer): Promise<string[]> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const result = await parser.getImage({ imageThreshold: 0, imageBuffer: false });
    return result.pages.flatMap((page) => page.images.map((image) => image.dataUrl));
  } finally {
    await parser.destroy();
  }
}

/** What a phone camera reads from a QR code picture (a PNG/JPEG data URL). */
async function readQr(dataUrl: string): Promise<string | undefined> {
  const [header, base64 = ''] = dataUrl.split(',');
  expect(header).toMatch(/^data:image\/(png|jpeg);base64$/);
  const { data, info } = await sharp(Buffer.from(base64, 'base64'))
    // A white frame: the quiet zone a reader needs, whatever the picture has.
    .flatten({ background: '#ffffff' })
    .extend({ top: 16, bottom: 16, left: 16, right: 16, background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data;
}

/** Any address, a new one per call: the checks of one test do not spend another's limit. */
let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return `10.77.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

/** One app and database: SP with a post, its rooms, their check-ins and exams; RJ and DF beside it. */
async function openWorld(audit: { twoPersonRule: boolean; recheckRate: number }) {
  const t = await buildTestApp({
    config: { publicAppUrl: PUBLIC_APP_URL, audit: { ...testConfig().audit, ...audit } },
  });
  const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP', name: 'Adriana Admin' });
  // The examiner of the world (who holds Sala Azul where the room's check-ins are opened).
  const viewer = await seedSignedIn(t.app, {
    role: 'VIEWER',
    unit: 'SP',
    name: 'Fiscal Sala Azul',
  });
  const ana = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Ana Auditora' });
  const bruno = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Bruno Auditor' });
  const rjAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'RJ' });
  const dfAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
  const key = (await createApiKeyFor(t.app, admin.auth)).key;
  const rjKey = (await createApiKeyFor(t.app, rjAdmin.auth)).key;
  const dfKey = (await createApiKeyFor(t.app, dfAdmin.auth)).key;

  const send = signedSender(() => t.app);
  const push = async (apiKey: string, exams: object[]) => {
    const pushed = await postExams(t.app, apiKey, exams);
    expect(pushed.statusCode, pushed.body).toBe(200);
  };
  const id = async (schedulingId: string, unit = 'SP') => {
    const [row] = await selectRows<{ id: string }>(
      t.database.db,
      sql`select id from exams where federative_unit = ${unit} and scheduling_id = ${schedulingId}`,
    );
    if (!row) throw new Error(`exame ${schedulingId} não semeado`);
    return row.id;
  };
  const issue = async (schedulingId: string, who: Signed = viewer, unit = 'SP') =>
    send('POST', `/api/Certificate/${await id(schedulingId, unit)}`, who);
  const issued = async (schedulingId: string, who: Signed = viewer) => {
    const answer = await issue(schedulingId, who);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as Certificate;
  };
  const verify = (code: string, options: { schedulingId?: string; ip?: string } = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/api/Certificate/verify/${encodeURIComponent(code)}`,
      ...(options.schedulingId ? { query: { schedulingId: options.schedulingId } } : {}),
      remoteAddress: options.ip ?? nextAddress(),
    });
  const claim = async (schedulingId: string, who: Signed) => {
    const answer = await send('POST', `/api/Audit/${await id(schedulingId)}/claim`, who);
    expect(answer.statusCode, answer.body).toBe(200);
  };
  /** Claims and decides; the answer of the decision. */
  const decide = async (schedulingId: string, who: Signed, payload: object) => {
    await claim(schedulingId, who);
    const answer = await send(
      'POST',
      `/api/Audit/${await id(schedulingId)}/decision`,
      who,
      payload,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { state: string; result: string };
  };
  const confirm = async (schedulingId: string, who: Signed) => {
    await claim(schedulingId, who);
    const answer = await send('POST', `/api/Audit/${await id(schedulingId)}/confirmation`, who, {
      accept: true,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { state: string; result: string };
  };
  const reopen = async (schedulingId: string) => {
    const answer = await send('POST', `/api/Audit/${await id(schedulingId)}/reopen`, admin, {
      reason: 'Recurso do candidato aceito pela administração.',
    });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const rows = async (schedulingId: string, unit = 'SP') =>
    selectRows<{
      id: string;
      code: string;
      federative_unit: string;
      issued_by: string | null;
      revoked_at: Date | string | null;
      revoked_reason: string | null;
    }>(
      t.database.db,
      sql`select id, code, federative_unit, issued_by, revoked_at, revoked_reason from certificates
          where exam_id = ${await id(schedulingId, unit)} order by issued_at`,
    );
  const activity = (type: string) =>
    selectRows<{
      actor_id: string | null;
      federative_unit: string;
      payload: Record<string, unknown>;
    }>(
      t.database.db,
      sql`select actor_id, federative_unit, payload from activity_log where type = ${type} order by created_at`,
    );
  const reason = await send('POST', '/api/DisqualificationReason', admin, {
    code: 'CERT-COLA',
    text: 'Consulta a material não permitido durante a prova.',
  });
  expect(reason.statusCode, reason.body).toBe(201);
  const disqualify = {
    action: 'disqualify',
    reasonId: (reason.json() as { id: string }).id,
    note: 'O candidato consultou o celular durante a prova.',
  };
  return {
    t,
    admin,
    viewer,
    ana,
    bruno,
    rjAdmin,
    dfAdmin,
    key,
    rjKey,
    dfKey,
    send,
    push,
    id,
    issue,
    issued,
    verify,
    decide,
    confirm,
    reopen,
    rows,
    activity,
    disqualify,
  };
}
type World = Awaited<ReturnType<typeof openWorld>>;

describe('certificates (two-person rule off)', () => {
  let w: World;
  /** The examiner holding Sala Verde, the room next door. */
  let nextDoor: Signed;
  let roomIds: Map<string, string>;
  /** When the room's check-ins were opened: the exams below ran after. */
  let startedAt: string;
  const exam = (schedulingId: string, overrides: Record<string, unknown> = {}) =>
    examPayload({
      schedulingId,
      candidate: { name: 'Maria Certificada da Silva', cpf: CPF, renach: 'SP987654321' },
      schedulingDate: startedAt,
      startedAt,
      status: 'done',
      result: 'in_analysis',
      score: 80,
      metadata: { schedulingLocal: 'SP.POSTO01-S1' },
      room: 'Sala 1',
      station: 'Estação 07',
      ...overrides,
    });

  beforeAll(async () => {
    w = await openWorld({ twoPersonRule: false, recheckRate: 0 });
    const { t, admin } = w;
    // The post, its two rooms, and an examiner holding each (check-ins through the API).
    const post = await w.send('POST', '/api/SchedulingLocal', admin, {
      identifier: 'SP.POSTO01',
      description: 'Posto Sé',
    });
    expect(post.statusCode, post.body).toBe(201);
    const rooms = new Map<string, string>();
    for (const [code, name] of [
      ['S1', 'Sala Azul'],
      ['S2', 'Sala Verde'],
    ] as const) {
      const room = await w.send('POST', '/api/ExamRoom', admin, {
        schedulingLocal: 'SP.POSTO01',
        code,
        name,
        stations: [{ code: 'Estação 07', position: 1 }],
      });
      expect(room.statusCode, room.body).toBe(201);
      rooms.set(code, (room.json() as { id: string }).id);
    }
    roomIds = rooms;
    nextDoor = await seedSignedIn(t.app, {
      role: 'ROOM_INSPECTOR',
      unit: 'SP',
      name: 'Fiscal Sala Verde',
    });
    for (const [code, examiner] of [
      ['S1', w.viewer],
      ['S2', nextDoor],
    ] as const) {
      const checkIn = await w.send('POST', '/api/SchedulingLocalCheckIn/checkIn', examiner, {
        viewers: [{ cpf: examiner.user.cpf }],
        schedulingLocal: 'SP.POSTO01',
        examRoomId: rooms.get(code),
      });
      expect(checkIn.statusCode, checkIn.body).toBe(201);
    }
    // The exams started a while ago and finish when they arrive (after the check-ins).
    startedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 20 * 60_000).toISOString();
    await w.push(w.key, [
      exam('CERT-APROVA', { score: 85 }),
      exam('CERT-REPROVA', { score: 50 }),
      exam('CERT-ANALISE'),
      exam('CERT-DESCLASSIFICA', { score: 92 }),
      exam('CERT-AGENDADO', { status: 'scheduled', result: null, score: null, startedAt: null }),
      exam('CERT-AUSENTE', { status: 'absence', result: null, score: null, startedAt: null }),
      exam('CERT-SEM-LOCAL', { result: 'approved', score: 75, metadata: {} }),
      exam('CERT-REABRE'),
      exam('CERT-REEMITE'),
      exam('CERT-CORRIDA'),
      exam('CERT-CONCORRE', { result: 'approved' }),
      exam('CERT-ISOLADO', { result: 'approved' }),
      exam('CERT-CUSTODIA', { result: 'approved' }),
      // Ran and finished before anyone held Sala Azul.
      exam('CERT-ANTES', {
        result: 'approved',
        schedulingDate: new Date(Date.now() - 3 * 3_600_000).toISOString(),
        startedAt: new Date(Date.now() - 3 * 3_600_000).toISOString(),
        finishedAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
      }),
    ]);
    await w.push(w.dfKey, [
      exam('DF-CERT-1', {
        candidate: { name: 'João do Distrito', cpf: CPF, renach: 'DF123456789' },
        result: 'approved',
        score: 90,
        metadata: { schedulingLocal: 'DF.POSTO01-S1' },
      }),
    ]);
  });
  afterAll(() => w.t.close());

  it('states the exam as it was: candidate, masked CPF, RENACH, unit, post, room local, station, date, result, examiners, auditor', async () => {
    expect(await w.decide('CERT-APROVA', w.ana, { action: 'release' })).toMatchObject({
      state: 'effective',
      result: 'approved',
    });
    const certificate = await w.issued('CERT-APROVA');
    expect(certificate).toMatchObject({ status: 'valid', revokedAt: null, revokedReason: null });
    expect(certificate.code).toMatch(CODE);
    expect(certificate.content).toEqual({
      schedulingId: 'CERT-APROVA',
      candidateName: 'Maria Certificada da Silva',
      candidateCpf: MASKED,
      candidateRenach: 'SP987654321',
      federativeUnit: 'SP',
      unitName: 'São Paulo',
      postName: 'Posto Sé',
      roomLocal: 'Posto Sé · Sala Azul',
      room: 'Sala Azul',
      station: 'Estação 07',
      examDate: startedAt,
      result: 'approved',
      score: 85,
      // The examiner who held the exam's room (Sala Azul), not the one of the room next door.
      examiners: ['Fiscal Sala Azul'],
      auditor: 'Ana Auditora',
    });
    expect(Date.parse(certificate.issuedAt)).toBeGreaterThan(Date.now() - 60_000);
    const [row] = await w.rows('CERT-APROVA');
    expect(row).toMatchObject({
      id: certificate.id,
      code: certificate.code.replaceAll('-', ''),
      federative_unit: 'SP',
      issued_by: w.viewer.user.id,
      revoked_at: null,
    });
    const issues = await w.activity('certificate_issue');
    expect(issues).toEqual([
      {
        actor_id: w.viewer.user.id,
        federative_unit: 'SP',
        payload: {
          examId: await w.id('CERT-APROVA'),
          schedulingId: 'CERT-APROVA',
          certificateId: certificate.id,
        },
      },
    ]);

    // Issuing again (another role, or the integration) gives the same certificate.
    const again = await w.issued('CERT-APROVA', w.admin);
    expect(again).toMatchObject({ id: certificate.id, code: certificate.code, status: 'valid' });
    expect(again.content).toEqual(certificate.content);
    const byIntegration = await w.t.app.inject({
      method: 'POST',
      url: '/api/Integration/exams/CERT-APROVA/certificate',
      headers: { 'x-api-key': w.key },
    });
    expect(byIntegration.statusCode, byIntegration.body).toBe(200);
    expect(byIntegration.json()).toMatchObject({ id: certificate.id, code: certificate.code });
    expect(await w.rows('CERT-APROVA')).toHaveLength(1);
    expect(await w.activity('certificate_issue')).toHaveLength(1);

    // A reproved exam has its certificate too.
    await w.decide('CERT-REPROVA', w.ana, { action: 'release' });
    expect((await w.issued('CERT-REPROVA')).content).toMatchObject({
      result: 'reproved',
      score: 50,
    });
  });

  it('only a finished exam with its result released: 409 CERTIFICATE_NOT_FINAL otherwise, and nothing written', async () => {
    expect(await w.decide('CERT-DESCLASSIFICA', w.ana, w.disqualify)).toMatchObject({
      state: 'effective',
      result: 'disqualified',
    });
    for (const schedulingId of [
      'CERT-ANALISE',
      'CERT-DESCLASSIFICA',
      'CERT-AGENDADO',
      'CERT-AUSENTE',
    ]) {
      expectCertificateError(await w.issue(schedulingId), 'CERTIFICATE_NOT_FINAL');
      expectCertificateError(await w.issue(schedulingId, w.admin), 'CERTIFICATE_NOT_FINAL');
      expect(await w.rows(schedulingId)).toEqual([]);
    }
    expectCertificateError(
      await w.send('POST', '/api/Certificate/00000000-0000-4000-8000-000000000000', w.admin),
      'CERTIFICATE_EXAM_NOT_FOUND',
    );
    const invalid = await w.send('POST', '/api/Certificate/nao-e-um-id', w.admin);
    expect(invalid.statusCode).toBe(400);
    // Auditors read certificates but do not issue them.
    expect((await w.issue('CERT-APROVA', w.ana)).statusCode).toBe(403);
  });

  it("only ADMIN or an examiner who held the exam's room while it ran: 403 CERTIFICATE_NOT_CUSTODIAN to the others, issuing or reading, and nothing written", async () => {
    const stranger = await seedSignedIn(w.t.app, { role: 'VIEWER', unit: 'SP' });
    // The examiner of the room next door, one of the unit without a room, and
    // Sala Azul's own examiner for an exam that ran before they took the room.
    for (const [schedulingId, who] of [
      ['CERT-CUSTODIA', nextDoor],
      ['CERT-CUSTODIA', stranger],
      ['CERT-ANTES', w.viewer],
    ] as const) {
      expectCertificateError(await w.issue(schedulingId, who), 'CERTIFICATE_NOT_CUSTODIAN');
      expect(await w.rows(schedulingId)).toEqual([]);
    }
    // ADMIN issues any exam of the unit; the examiner who held the room gets the same certificate.
    const byAdmin = await w.issued('CERT-ANTES', w.admin);
    const certificate = await w.issued('CERT-CUSTODIA');
    expect(certificate.content.examiners).toEqual(['Fiscal Sala Azul']);
    // Issued already, it is not handed to who may not issue it, nor its PDF.
    expectCertificateError(await w.issue('CERT-CUSTODIA', nextDoor), 'CERTIFICATE_NOT_CUSTODIAN');
    const pdf = (id: string, who: Signed) => w.send('GET', `/api/Certificate/${id}/pdf`, who);
    expectCertificateError(await pdf(certificate.id, nextDoor), 'CERTIFICATE_NOT_CUSTODIAN');
    expectCertificateError(await pdf(byAdmin.id, w.viewer), 'CERTIFICATE_NOT_CUSTODIAN');
    for (const who of [w.viewer, w.admin, w.ana]) {
      expect((await pdf(certificate.id, who)).statusCode).toBe(200);
    }
    expect(await w.activity('certificate_issue')).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ actor_id: nextDoor.user.id })]),
    );
    // The room's board offers the action where it will be accepted (the day each exam ran).
    const board = async (schedulingId: string, who: Signed) => {
      const [row] = await selectRows<{ started_at: Date | string }>(
        w.t.database.db,
        sql`select started_at from exams where federative_unit = 'SP' and scheduling_id = ${schedulingId}`,
      );
      const day = dayInZone(new Date(row!.started_at));
      const answer = await w.send(
        'GET',
        `/api/ExamRoom/${roomIds.get('S1')}/board?day=${day}`,
        who,
      );
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as { certificateExamIds: string[] }).certificateExamIds;
    };
    expect(await board('CERT-CUSTODIA', w.viewer)).toContain(await w.id('CERT-CUSTODIA'));
    expect(await board('CERT-ANTES', w.viewer)).not.toContain(await w.id('CERT-ANTES'));
    expect(await board('CERT-ANTES', w.admin)).toContain(await w.id('CERT-ANTES'));
    expect(await board('CERT-CUSTODIA', w.ana)).toEqual([]);
  });

  it('the public check: no sign-in, only what a third party may see, forgiving typing, unknown and malformed codes', async () => {
    const certificate = await w.issued('CERT-APROVA');
    const checked = await w.verify(certificate.code);
    expect(checked.statusCode, checked.body).toBe(200);
    const body = checked.json();
    expect(Object.keys(body).sort()).toEqual([...PUBLIC_FIELDS, 'content'].sort());
    expect(Object.keys(body.content).sort()).toEqual(PUBLIC_CONTENT);
    expect(body).toEqual({
      code: certificate.code,
      status: 'valid',
      issuedAt: certificate.issuedAt,
      revokedAt: null,
      revokedReason: null,
      verifyUrl: certificate.verifyUrl,
      content: {
        schedulingId: 'CERT-APROVA',
        candidateName: 'Maria Certificada da Silva',
        candidateCpf: MASKED,
        federativeUnit: 'SP',
        unitName: 'São Paulo',
        postName: 'Posto Sé',
        roomLocal: 'Posto Sé · Sala Azul',
        examDate: startedAt,
        result: 'approved',
      },
    });
    expect(body.content.candidateCpf).toMatch(MASKED_CPF);
    // Nothing of the RENACH, the whole CPF, the staff or the score, anywhere in the answer.
    for (const secret of [
      'SP987654321',
      '52998224725',
      CPF,
      'Fiscal Sala Azul',
      'Ana Auditora',
      'Fiscal Sala Verde',
      'examiners',
      'auditor',
      'candidateRenach',
      'score',
      certificate.id,
    ]) {
      expect(checked.body).not.toContain(secret);
    }

    // Typed by a person: lower case, spaces for dashes, O for 0 and L/I for 1.
    const typed = ` ${certificate.code.toLowerCase().replaceAll('-', ' ')} `
      .replaceAll('0', 'o')
      .replaceAll('1', 'l');
    const loose = await w.verify(typed);
    expect(loose.statusCode, loose.body).toBe(200);
    expect(loose.json().code).toBe(certificate.code);
    const bare = await w.verify(
      certificate.code.replaceAll('-', '').toLowerCase().replaceAll('1', 'i'),
    );
    expect(bare.json().code).toBe(certificate.code);

    // A well-formed code that no certificate has, and the same code one character off.
    expectCertificateError(await w.verify('0000-0000-0000-0000'), 'CERTIFICATE_NOT_FOUND');
    const last = certificate.code.at(-1) === 'Z' ? 'Y' : 'Z';
    expectCertificateError(
      await w.verify(`${certificate.code.slice(0, -1)}${last}`),
      'CERTIFICATE_NOT_FOUND',
    );
    // Malformed: too short, or a letter outside the alphabet (U).
    for (const malformed of ['ABC-123', 'UUUU-UUUU-UUUU-UUUU', `${certificate.code}-7`]) {
      const answer = await w.verify(malformed);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().code).toBe('VALIDATION_ERROR');
      expect(answer.json().details).toEqual([
        {
          path: 'params.code',
          message: 'O código tem 16 letras e números, como 7KQ2-9XHM-D4TB-W1RZ.',
        },
      ]);
    }
  });

  it('the federal-district variant: the address names the scheduling, and another scheduling is not found', async () => {
    const answer = await w.t.app.inject({
      method: 'POST',
      url: '/api/Integration/exams/DF-CERT-1/certificate',
      headers: { 'x-api-key': w.dfKey },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const certificate = answer.json() as Certificate;
    expect(certificate.verifyUrl).toBe(
      `${PUBLIC_APP_URL}/certificate/DF-CERT-1?code=${certificate.code}`,
    );
    expect(certificate.content).toMatchObject({
      federativeUnit: 'DF',
      unitName: 'Distrito Federal',
      candidateRenach: 'DF123456789',
      // No audit decided it: the integration released the result.
      auditor: null,
      examiners: [],
    });
    expect((await w.rows('DF-CERT-1', 'DF'))[0]!.issued_by).toBeNull();
    expect(await readQr(certificate.qrDataUrl)).toBe(certificate.verifyUrl);
    // The longer address of the variant is printed whole in the PDF, and its QR read back.
    const pdf = await w.send('GET', `/api/Certificate/${certificate.id}/pdf`, w.dfAdmin);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain(certificate.verifyUrl);
    expect(text).toContain('Resultado liberado sem decisão de auditoria');
    expect(await Promise.all((await pdfImages(pdf.rawPayload)).map(readQr))).toContain(
      certificate.verifyUrl,
    );
    const checked = await w.verify(certificate.code, { schedulingId: 'DF-CERT-1' });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({ status: 'valid', verifyUrl: certificate.verifyUrl });
    expectCertificateError(
      await w.verify(certificate.code, { schedulingId: 'DF-CERT-2' }),
      'CERTIFICATE_NOT_FOUND',
    );
    // An SP certificate checked on the page of a DF scheduling is not found either.
    const sp = await w.issued('CERT-APROVA');
    expect(sp.verifyUrl).toBe(`${PUBLIC_APP_URL}/certificate?code=${sp.code}`);
    expectCertificateError(
      await w.verify(sp.code, { schedulingId: 'DF-CERT-1' }),
      'CERTIFICATE_NOT_FOUND',
    );
    expect((await w.verify(sp.code, { schedulingId: 'CERT-APROVA' })).statusCode).toBe(200);
  });

  it(`the check is limited per address: the ${RATE_LIMITS.certificatePerIp.limit + 1}th in the window gets 429 with Retry-After`, async () => {
    const { code } = await w.issued('CERT-APROVA');
    const ip = '203.0.113.77';
    const limit = RATE_LIMITS.certificatePerIp.limit;
    expect(limit).toBe(30);
    for (let i = 0; i < limit; i += 1) {
      // A wrong code costs the same as a right one.
      const answer = await w.verify(i % 2 === 0 ? code : '0000-0000-0000-0000', { ip });
      expect(answer.statusCode, `${i + 1}ª consulta`).toBe(i % 2 === 0 ? 200 : 404);
    }
    const blocked = await w.verify(code, { ip });
    expect(blocked.statusCode, blocked.body).toBe(429);
    expect(blocked.json()).toMatchObject({
      code: 'RATE_LIMITED',
      Error: 'Muitas tentativas. Aguarde um pouco e tente novamente.',
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(RATE_LIMITS.certificatePerIp.windowMs / 1000);
    // Another address is not held back.
    expect((await w.verify(code, { ip: '203.0.113.78' })).statusCode).toBe(200);
  });

  it('revocation: ADMIN reopening revokes in its transaction (reopened); a later disqualification refuses a new one and leaves the old as it was', async () => {
    await w.decide('CERT-REABRE', w.ana, { action: 'release' });
    const certificate = await w.issued('CERT-REABRE');
    expect((await w.verify(certificate.code)).json().status).toBe('valid');

    const before = Date.now();
    await w.reopen('CERT-REABRE');
    // The very next check already says revoked: same transaction as the reopening.
    const revoked = await w.verify(certificate.code);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({
      code: certificate.code,
      status: 'revoked',
      revokedReason: 'reopened',
    });
    const revokedAt = Date.parse(revoked.json().revokedAt);
    expect(revokedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(revokedAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect(
      (await w.activity('certificate_revoke')).filter(
        (event) => event.payload.schedulingId === 'CERT-REABRE',
      ),
    ).toEqual([
      {
        actor_id: w.admin.user.id,
        federative_unit: 'SP',
        payload: {
          examId: await w.id('CERT-REABRE'),
          schedulingId: 'CERT-REABRE',
          certificateId: certificate.id,
          reason: 'reopened',
        },
      },
    ]);
    // Back in analysis: no certificate.
    expectCertificateError(await w.issue('CERT-REABRE'), 'CERTIFICATE_NOT_FINAL');

    await w.decide('CERT-REABRE', w.ana, w.disqualify);
    expectCertificateError(await w.issue('CERT-REABRE'), 'CERTIFICATE_NOT_FINAL');
    const after = (await w.verify(certificate.code)).json();
    expect(after).toMatchObject({ status: 'revoked', revokedReason: 'reopened' });
    expect(Date.parse(after.revokedAt)).toBe(revokedAt);
    expect(await w.rows('CERT-REABRE')).toHaveLength(1);
    expect(
      (await w.activity('certificate_revoke')).filter(
        (event) => event.payload.schedulingId === 'CERT-REABRE',
      ),
    ).toHaveLength(1);
  });

  it('revocation: released again after a reopening, a new certificate (new code); reopened again, it is revoked; a disqualification revokes a valid one as disqualified', async () => {
    await w.decide('CERT-REEMITE', w.ana, { action: 'release' });
    const first = await w.issued('CERT-REEMITE');
    await w.reopen('CERT-REEMITE');
    await w.decide('CERT-REEMITE', w.ana, { action: 'release' });
    const second = await w.issued('CERT-REEMITE');
    expect(second.id).not.toBe(first.id);
    expect(second.code).not.toBe(first.code);
    expect(second.status).toBe('valid');
    expect((await w.verify(first.code)).json()).toMatchObject({
      status: 'revoked',
      revokedReason: 'reopened',
    });
    expect((await w.verify(second.code)).json()).toMatchObject({ status: 'valid' });
    // The integration's PDF is the newest certificate.
    const pdf = await w.t.app.inject({
      method: 'GET',
      url: '/api/Integration/exams/CERT-REEMITE/certificate/pdf',
      headers: { 'x-api-key': w.key },
    });
    expect(pdf.statusCode).toBe(200);
    expect((await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ')).toContain(second.code);

    await w.reopen('CERT-REEMITE');
    expect((await w.verify(second.code)).json()).toMatchObject({
      status: 'revoked',
      revokedReason: 'reopened',
    });
    expect((await w.rows('CERT-REEMITE')).map((row) => row.revoked_reason)).toEqual([
      'reopened',
      'reopened',
    ]);

    // Through the API a disqualification never meets a valid certificate (the exam is in
    // analysis, and the reopening that put it there revoked it). The state is written here
    // by hand to check that a disqualification revokes with its own reason, in its transaction.
    await w.t.database.db.execute(
      sql`update certificates set revoked_at = null, revoked_reason = null where id = ${second.id}`,
    );
    expect((await w.verify(second.code)).json().status).toBe('valid');
    await w.decide('CERT-REEMITE', w.ana, w.disqualify);
    expect((await w.verify(second.code)).json()).toMatchObject({
      status: 'revoked',
      revokedReason: 'disqualified',
    });
    expect((await w.verify(first.code)).json().revokedReason).toBe('reopened');
    expect(
      (await w.activity('certificate_revoke'))
        .filter((event) => event.payload.certificateId === second.id)
        .map((event) => [event.actor_id, event.payload.reason]),
    ).toEqual([
      [w.admin.user.id, 'reopened'],
      [w.ana.user.id, 'disqualified'],
    ]);
  });

  it('spec 5: an exam without a scheduling local has no room local, and its PDF says so', async () => {
    // No room local, no custody: only ADMIN issues it.
    const certificate = await w.issued('CERT-SEM-LOCAL', w.admin);
    expect(certificate.content).toMatchObject({
      roomLocal: null,
      postName: null,
      examiners: [],
      auditor: null,
    });
    expect((await w.verify(certificate.code)).json().content.roomLocal).toBeNull();
    const pdf = await w.send('GET', `/api/Certificate/${certificate.id}/pdf`, w.admin);
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain(MISSING_ROOM_LOCAL_MESSAGE);
    // The one with a room local does not.
    const located = await w.issued('CERT-APROVA');
    const other = await w.send('GET', `/api/Certificate/${located.id}/pdf`, w.admin);
    const otherText = (await pdfText(other.rawPayload)).replace(/\s+/g, ' ');
    expect(otherText).not.toContain(MISSING_ROOM_LOCAL_MESSAGE);
    expect(otherText).toContain('Posto Sé · Sala Azul');
  });

  it('the PDF, parsed back: the candidate, masked CPF, code, result, unit and the check address; the unit only', async () => {
    const certificate = await w.issued('CERT-APROVA');
    for (const who of [w.admin, w.viewer, w.ana]) {
      const pdf = await w.send('GET', `/api/Certificate/${certificate.id}/pdf`, who);
      expect(pdf.statusCode, pdf.body).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toContain('certificado-CERT-APROVA.pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    const pdf = await w.send('GET', `/api/Certificate/${certificate.id}/pdf`, w.viewer);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    for (const expected of [
      'Maria Certificada da Silva',
      MASKED,
      certificate.code,
      'Aprovado (nota 85)',
      'São Paulo (SP)',
      'SP987654321',
      'Posto Sé · Sala Azul',
      'Estação 07',
      'Fiscal Sala Azul',
      'Ana Auditora',
      certificate.verifyUrl,
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('52998224725');
    expect(text).not.toContain(CPF);
    expect(text).not.toContain('REVOGADO');
    // The QR drawn in the PDF points at the check too.
    const images = await pdfImages(pdf.rawPayload);
    expect(images.length).toBeGreaterThan(0);
    expect(await Promise.all(images.map(readQr))).toContain(certificate.verifyUrl);

    // A revoked certificate's PDF says so.
    const [revoked] = await w.rows('CERT-REABRE');
    const revokedPdf = await w.send('GET', `/api/Certificate/${revoked!.id}/pdf`, w.admin);
    expect(revokedPdf.statusCode).toBe(200);
    expect((await pdfText(revokedPdf.rawPayload)).replace(/\s+/g, ' ')).toContain(
      'a decisão da auditoria foi reaberta',
    );

    // Another unit's user, and another unit's key, do not find it.
    expectCertificateError(
      await w.send('GET', `/api/Certificate/${certificate.id}/pdf`, w.rjAdmin),
      'CERTIFICATE_NOT_FOUND',
    );
    expectCertificateError(
      await w.send('GET', '/api/Certificate/00000000-0000-4000-8000-000000000000/pdf', w.admin),
      'CERTIFICATE_NOT_FOUND',
    );
    const integration = (apiKey: string, schedulingId = 'CERT-APROVA') =>
      w.t.app.inject({
        method: 'GET',
        url: `/api/Integration/exams/${schedulingId}/certificate/pdf`,
        headers: { 'x-api-key': apiKey },
      });
    const byKey = await integration(w.key);
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(byKey.headers['content-type']).toBe('application/pdf');
    expect((await pdfText(byKey.rawPayload)).replace(/\s+/g, ' ')).toContain(certificate.code);
    expectCertificateError(await integration(w.rjKey), 'CERTIFICATE_NOT_FOUND');
    // An exam without a certificate, and no key at all.
    expectCertificateError(await integration(w.key, 'CERT-ANALISE'), 'CERTIFICATE_NOT_FOUND');
    expect(
      (
        await w.t.app.inject({
          method: 'GET',
          url: '/api/Integration/exams/CERT-APROVA/certificate/pdf',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('the QR code, read back, is the check address under the configured public address', async () => {
    const certificate = await w.issued('CERT-APROVA');
    expect(certificate.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(await readQr(certificate.qrDataUrl)).toBe(certificate.verifyUrl);
    expect(certificate.verifyUrl).toBe(`${PUBLIC_APP_URL}/certificate?code=${certificate.code}`);
    expect(certificate.verifyUrl.startsWith(`${PUBLIC_APP_URL}/`)).toBe(true);
    // The address it opens names a certificate the public check finds.
    const code = new URL(certificate.verifyUrl).searchParams.get('code')!;
    expect((await w.verify(code)).json()).toMatchObject({ status: 'valid' });
  });

  it("tenant isolation: another unit issuing for this unit's exam gets 404 and nothing is written", async () => {
    const examId = await w.id('CERT-ISOLADO');
    expectCertificateError(
      await w.send('POST', `/api/Certificate/${examId}`, w.rjAdmin),
      'CERTIFICATE_EXAM_NOT_FOUND',
    );
    expectCertificateError(
      await w.send('POST', `/api/Certificate/${examId}`, w.dfAdmin),
      'CERTIFICATE_EXAM_NOT_FOUND',
    );
    const byForeignKey = await w.t.app.inject({
      method: 'POST',
      url: '/api/Integration/exams/CERT-ISOLADO/certificate',
      headers: { 'x-api-key': w.rjKey },
    });
    expectCertificateError(byForeignKey, 'CERTIFICATE_EXAM_NOT_FOUND');
    expect(await w.rows('CERT-ISOLADO')).toEqual([]);
    const [{ n }] = (await selectRows<{ n: number }>(
      w.t.database.db,
      sql`select count(*)::int as n from certificates where federative_unit <> 'SP' and exam_id = ${examId}`,
    )) as [{ n: number }];
    expect(n).toBe(0);
    // Its own unit issues it.
    expect((await w.issued('CERT-ISOLADO')).content.federativeUnit).toBe('SP');
  });

  it('two issues at the same moment: both answer the same certificate, and there is one', async () => {
    const examId = await w.id('CERT-CONCORRE');
    const answers = await Promise.all([
      w.send('POST', `/api/Certificate/${examId}`, w.viewer),
      w.send('POST', `/api/Certificate/${examId}`, w.admin),
      w.t.app.inject({
        method: 'POST',
        url: '/api/Integration/exams/CERT-CONCORRE/certificate',
        headers: { 'x-api-key': w.key },
      }),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const codes = new Set(answers.map((answer) => answer.json().code));
    const ids = new Set(answers.map((answer) => answer.json().id));
    expect(codes.size).toBe(1);
    expect(ids.size).toBe(1);
    expect(await w.rows('CERT-CONCORRE')).toHaveLength(1);
    expect(
      (await w.activity('certificate_issue')).filter(
        (event) => event.payload.schedulingId === 'CERT-CONCORRE',
      ),
    ).toHaveLength(1);
  });

  // PGlite runs one transaction at a time; on PostgreSQL the issue must wait for the reopening.
  it.skipIf(!testDatabaseUrl)(
    'an issue that meets a reopening in progress waits for it, then refuses: no valid certificate of an exam in analysis',
    async () => {
      await w.decide('CERT-CORRIDA', w.ana, { action: 'release' });
      const examId = await w.id('CERT-CORRIDA');
      // What reopenDecision does, held open: the exam locked and put back in analysis.
      const reopening = new pg.Client({ connectionString: w.t.database.url });
      await reopening.connect();
      try {
        await reopening.query('begin');
        await reopening.query('select id from exams where id = $1 for update', [examId]);
        await reopening.query(`update exams set result = 'in_analysis' where id = $1`, [examId]);
        let settled = 0;
        const pending = [
          w.issue('CERT-CORRIDA'),
          w.t.app.inject({
            method: 'POST',
            url: '/api/Integration/exams/CERT-CORRIDA/certificate',
            headers: { 'x-api-key': w.key },
          }),
        ].map((issue) => issue.finally(() => (settled += 1)));
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(settled).toBe(0);
        await reopening.query('commit');
        for (const answer of await Promise.all(pending)) {
          expectCertificateError(answer, 'CERTIFICATE_NOT_FINAL');
        }
      } finally {
        await reopening.end();
      }
      expect(await w.rows('CERT-CORRIDA')).toEqual([]);
    },
  );
});

describe('certificates (two-person rule on, every approval re-checked)', () => {
  let w: World;

  beforeAll(async () => {
    w = await openWorld({ twoPersonRule: true, recheckRate: 1 });
    await w.push(w.key, [
      examPayload({
        schedulingId: 'DUAS-APROVA',
        candidate: { name: 'Carlos Conferido', cpf: CPF, renach: 'SP111222333' },
        status: 'done',
        result: 'in_analysis',
        score: 88,
        metadata: { schedulingLocal: 'SP.POSTO09-S1' },
      }),
    ]);
  });
  afterAll(() => w.t.close());

  it('the certificate names the auditor and who confirmed; waiting for confirmation there is none', async () => {
    expect(await w.decide('DUAS-APROVA', w.ana, { action: 'release' })).toMatchObject({
      state: 'awaiting_confirmation',
      result: 'in_analysis',
    });
    expectCertificateError(await w.issue('DUAS-APROVA', w.admin), 'CERTIFICATE_NOT_FINAL');
    expect(await w.confirm('DUAS-APROVA', w.bruno)).toMatchObject({
      state: 'effective',
      result: 'approved',
    });
    const certificate = await w.issued('DUAS-APROVA', w.admin);
    expect(certificate.content).toMatchObject({
      result: 'approved',
      auditor: 'Ana Auditora (confirmado por Bruno Auditor)',
      // A post that is not registered: its identifier, and the exam's own room name.
      postName: 'SP.POSTO09',
      roomLocal: 'SP.POSTO09 · Sala 1',
      examiners: [],
    });
    const pdf = await w.send('GET', `/api/Certificate/${certificate.id}/pdf`, w.admin);
    expect((await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ')).toContain(
      'Ana Auditora (confirmado por Bruno Auditor)',
    );
  });

  it('a disqualification revokes only when it takes effect, at the confirmation, in its transaction', async () => {
    const certificate = await w.issued('DUAS-APROVA', w.admin);
    await w.reopen('DUAS-APROVA');
    expect((await w.verify(certificate.code)).json()).toMatchObject({
      status: 'revoked',
      revokedReason: 'reopened',
    });
    // As above: the API leaves no valid certificate on an exam in analysis; written by hand.
    await w.t.database.db.execute(
      sql`update certificates set revoked_at = null, revoked_reason = null where id = ${certificate.id}`,
    );
    expect(await w.decide('DUAS-APROVA', w.ana, w.disqualify)).toMatchObject({
      state: 'awaiting_confirmation',
    });
    // Waiting for a second auditor: nothing is in effect yet.
    expect((await w.verify(certificate.code)).json().status).toBe('valid');
    expect(await w.confirm('DUAS-APROVA', w.bruno)).toMatchObject({
      state: 'effective',
      result: 'disqualified',
    });
    const checked = (await w.verify(certificate.code)).json();
    expect(checked).toMatchObject({ status: 'revoked', revokedReason: 'disqualified' });
    expect(checked.revokedAt).not.toBeNull();
    expectCertificateError(await w.issue('DUAS-APROVA', w.admin), 'CERTIFICATE_NOT_FINAL');
    const revocations = await w.activity('certificate_revoke');
    expect(revocations.at(-1)).toMatchObject({
      actor_id: w.bruno.user.id,
      payload: { certificateId: certificate.id, reason: 'disqualified' },
    });
  });
});
