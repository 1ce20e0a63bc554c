/**
 * What the audit queue says of each exam, on both database tiers: the post by
 * its name, as the other lists do; the lowest face similarity or, without
 * one, why (in the words of the audit page: no face found, still to read, no
 * reference, no capture); and the audit page's timeline naming the auditor
 * behind a decision.
 */
import { QUEUE_FACE_LABELS, type AuditDetail, type AuditQueuePage } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceService } from '../../biometrics/face-engine';
import { selectRows } from '../../db/select-rows';
import { examPhotos, schedulingLocals } from '../../db/schema/index';
import { awaitingAuditPayload, createApiKeyFor, postExams } from '../../../test/exams';
import { buildTestApp, testConfig, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';
import { faceStateOf } from './audit-queue.service';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

const VERSION = 'motor-de-teste-v1';
const OTHER_VERSION = 'motor-antigo-v0';

/** An engine that is never asked to read: every photo of these tests is read already. */
const stubFace: FaceService = {
  threshold: 0.69,
  thresholdFor: () => 0.69,
  descriptorVersion: VERSION,
  ready: async () => undefined,
  analyze: () => Promise.reject(new Error('não deveria ler fotos neste teste')),
  compare: () => {
    throw new Error('não deveria comparar rostos neste teste');
  },
  close: async () => undefined,
};

const at = (day: number, hour: number) => new Date(Date.UTC(2026, 10, day, hour + 3)).toISOString();

describe('faceStateOf', () => {
  const summary = (overrides: Partial<Parameters<typeof faceStateOf>[1] & object> = {}) => ({
    captures: 2,
    capturesFound: 2,
    capturesUnread: 0,
    reference: 'found' as const,
    ...overrides,
  });

  it.each([
    ['compared', 0.4, summary({ capturesFound: 1 })],
    ['no_captures', null, undefined],
    ['no_captures', null, summary({ captures: 0, capturesFound: 0 })],
    ['no_reference', null, summary({ reference: null })],
    ['pending', null, summary({ reference: 'pending' })],
    ['pending', null, summary({ capturesUnread: 1, capturesFound: 1 })],
    ['no_face', null, summary({ capturesFound: 0 })],
    ['no_face', null, summary({ capturesFound: 0, reference: 'no_face' })],
    ['no_face_reference', null, summary({ reference: 'no_face' })],
    // Every face read and the lowest not stored yet: the next reading computes it.
    ['pending', null, summary()],
  ] as const)('%s (lowest %s)', (expected, lowest, faces) => {
    expect(faceStateOf(lowest, faces)).toBe(expected);
  });
});

describe('audit queue: post names, face states and who decided', () => {
  let t: TestApp;
  let admin: Signed;
  let ana: Signed;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await buildTestApp({
      faceService: stubFace,
      config: { audit: { ...testConfig().audit, twoPersonRule: false, recheckRate: 0 } },
    });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP', name: 'Adriana Admin' });
    ana = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Ana Auditora' });
    await t.database.db.insert(schedulingLocals).values([
      { federativeUnit: 'SP', identifier: 'SP.POSTO05', description: 'Posto Paulista' },
      // Another unit's post of the same identifier never names an SP exam.
      { federativeUnit: 'RJ', identifier: 'SP.POSTO05', description: 'Posto de outra unidade' },
    ]);
    const { key } = await createApiKeyFor(t.app, admin.auth);
    const exams = [
      ['SEM-ROSTO', 'SP.POSTO05-S1'],
      ['SEM-ROSTO-REF', 'SP.POSTO05-S2'],
      ['A-LER', 'SP.POSTO05'],
      ['SEM-REFERENCIA', 'SP.POSTO99-S1'],
      ['SEM-CAPTURA', null],
      ['COMPARADO', 'SP.POSTO05-S1'],
    ] as const;
    const pushed = await postExams(
      t.app,
      key,
      exams.map(([schedulingId, local], index) =>
        awaitingAuditPayload({
          schedulingId,
          schedulingDate: at(1 + index, 9),
          score: 85,
          metadata: local ? { schedulingLocal: local } : {},
        }),
      ),
    );
    expect(pushed.statusCode, pushed.body).toBe(200);
    const rows = await selectRows<{ id: string; scheduling_id: string }>(
      t.database.db,
      sql`select id, scheduling_id from exams where federative_unit = 'SP'`,
    );
    for (const row of rows) ids.set(row.scheduling_id, row.id);

    type Reading = 'found' | 'no_face' | 'pending';
    let sequence = 0;
    const photo = (
      schedulingId: string,
      kind: 'capture' | 'reference',
      status: Reading,
      version: string | null = VERSION,
    ) => ({
      examId: ids.get(schedulingId)!,
      kind,
      capturedAt: new Date(at(20, 9)),
      storageKey: `teste/${schedulingId}/${(sequence += 1)}`,
      contentType: 'image/jpeg',
      width: 1,
      height: 1,
      bytes: 1,
      sha256: `sha-${sequence}`,
      faceStatus: status,
      faceDescriptorVersion: status === 'pending' ? null : version,
    });
    await t.database.db.insert(examPhotos).values([
      photo('SEM-ROSTO', 'reference', 'found'),
      photo('SEM-ROSTO', 'capture', 'no_face'),
      photo('SEM-ROSTO', 'capture', 'no_face'),
      photo('SEM-ROSTO-REF', 'reference', 'no_face'),
      photo('SEM-ROSTO-REF', 'capture', 'found'),
      photo('A-LER', 'reference', 'found'),
      photo('A-LER', 'capture', 'no_face'),
      // Read by another engine: unread for this one, as on the audit page.
      photo('A-LER', 'capture', 'found', OTHER_VERSION),
      photo('SEM-REFERENCIA', 'capture', 'found'),
      photo('COMPARADO', 'reference', 'found'),
      photo('COMPARADO', 'capture', 'found'),
    ]);
    await t.database.db.execute(
      sql`update exams set face_min_similarity = 0.2, face_min_similarity_version = ${VERSION}
          where id = ${ids.get('COMPARADO')!}`,
    );
  });
  afterAll(() => t.close());

  const queue = async (who: Signed) => {
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/Audit/queue',
      headers: who.auth,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as AuditQueuePage;
  };

  it('names each exam’s post as the other lists do, its room suffix left out', async () => {
    const page = await queue(ana);
    const names = Object.fromEntries(
      page.items.map((item) => [item.schedulingId, [item.schedulingLocal, item.localName]]),
    );
    expect(names).toEqual({
      'SEM-ROSTO': ['SP.POSTO05-S1', 'Posto Paulista'],
      'SEM-ROSTO-REF': ['SP.POSTO05-S2', 'Posto Paulista'],
      'A-LER': ['SP.POSTO05', 'Posto Paulista'],
      // A post no scheduling local of the unit names: no name (the screen shows the local).
      'SEM-REFERENCIA': ['SP.POSTO99-S1', null],
      'SEM-CAPTURA': [null, null],
      COMPARADO: ['SP.POSTO05-S1', 'Posto Paulista'],
    });
  });

  it('says why an exam has no lowest similarity, in the words of its page', async () => {
    const page = await queue(admin);
    const states = Object.fromEntries(
      page.items.map((item) => [item.schedulingId, [item.faceState, item.faceMinLevel]]),
    );
    expect(states).toEqual({
      'SEM-ROSTO': ['no_face', null],
      'SEM-ROSTO-REF': ['no_face_reference', null],
      'A-LER': ['pending', null],
      'SEM-REFERENCIA': ['no_reference', null],
      'SEM-CAPTURA': ['no_captures', null],
      COMPARADO: ['compared', 'baixa'],
    });
    // The page's badge of a capture without a face and the queue's words are the same.
    expect(QUEUE_FACE_LABELS.no_face).toBe('Rosto não encontrado');

    // The exam's page: every capture of SEM-ROSTO reads "no face".
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/Audit/${ids.get('SEM-ROSTO')!}`,
      headers: admin.auth,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    const captures = (detail.json() as AuditDetail).captures;
    expect(captures.map((capture) => capture.face.status)).toEqual(['no_face', 'no_face']);
  });

  it('the timeline names the auditor who decided, not “usuário”', async () => {
    const examId = ids.get('SEM-CAPTURA')!;
    const claim = await t.app.inject({
      method: 'POST',
      url: `/api/Audit/${examId}/claim`,
      headers: ana.auth,
    });
    expect(claim.statusCode, claim.body).toBe(200);
    const decided = await t.app.inject({
      method: 'POST',
      url: `/api/Audit/${examId}/decision`,
      headers: ana.auth,
      payload: { action: 'release' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/Audit/${examId}`,
      headers: admin.auth,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    const history = (detail.json() as AuditDetail).history;
    const decision = history.at(-1);
    expect(decision).toMatchObject({
      fromResult: 'in_analysis',
      toResult: 'approved',
      source: 'user',
      actorName: 'Ana Auditora',
    });
    // The delivery system's changes have no person behind them.
    expect(history.filter((entry) => entry.source === 'integration')).not.toHaveLength(0);
    for (const entry of history.filter((item) => item.source === 'integration')) {
      expect(entry.actorName).toBeNull();
    }
  });
});
