import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import {
  activityLog,
  biometricTemplates,
  biometricVerifications,
  checkIns,
  checkInViewers,
  examPhotos,
  faceChallenges,
  proctoringTokens,
  identityProviders,
  ssoLogins,
  mfaTickets,
  loginThrottle,
  mailOutbox,
  passwordLinkRequests,
  rateLimits,
  realtimeEvents,
  schedulingLocals,
  sessions,
  trustedDevices,
} from '../../db/schema/index';
import { createApiKeyFor, examPayload, postExams } from '../../../test/exams';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn, seedUser } from '../../../test/identity';
import { purgeExpiredPersonalData, purgeOperationalData } from './retention.service';

describe('LGPD retention', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const DAY = 86_400_000;
  const deps = () => ({ db: t.database.db, files: t.app.files, pseudonym: t.app.pseudonym });
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

  it('purges old verifications, enrolments and exam photos per unit, files included, and records it', async () => {
    const db = t.database.db;
    const files = t.app.files;
    for (const [unit, days] of [
      ['DF', 200],
      ['DF', 10],
      ['SP', 200],
    ] as const) {
      await db.insert(biometricVerifications).values({
        federativeUnit: unit,
        cpf: '52998224725',
        match: true,
        threshold: 0.58,
        createdAt: daysAgo(days),
      });
    }
    const oldKey = await files.put(Buffer.from('foto antiga'));
    const newKey = await files.put(Buffer.from('foto recente'));
    await db.insert(biometricTemplates).values([
      {
        federativeUnit: 'DF',
        cpf: '11144477735',
        templateSealed: 'x',
        imageKeys: [oldKey],
        updatedAt: daysAgo(400),
      },
      {
        federativeUnit: 'DF',
        cpf: '12345678909',
        templateSealed: 'x',
        imageKeys: [newKey],
        updatedAt: daysAgo(5),
      },
    ]);
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const key = (await createApiKeyFor(t.app, admin.auth)).key;
    const exam = examPayload();
    await postExams(t.app, key, [exam]);
    const [row] = await selectRows<{ id: string }>(
      db,
      sql`select id from exams where scheduling_id = ${exam.schedulingId}`,
    );
    const photoKey = await files.put(Buffer.from('foto do exame'));
    await db.insert(examPhotos).values({
      examId: row!.id,
      capturedAt: daysAgo(200),
      storageKey: photoKey,
      contentType: 'image/jpeg',
      width: 1,
      height: 1,
      bytes: 1,
      sha256: 'a',
    });

    // DF keeps 100 days, every other unit the default 365.
    const counts = await purgeExpiredPersonalData(deps(), {
      defaultDays: 365,
      byUnit: { DF: 100 },
    });
    expect(counts.DF).toEqual({ verifications: 1, enrolments: 1, photos: 1, events: 0 });
    expect(counts.SP).toEqual({ verifications: 0, enrolments: 0, photos: 0, events: 0 });

    const left = await selectRows<{ unit: string; n: number }>(
      db,
      sql`select federative_unit as unit, count(*)::int as n from biometric_verifications group by 1 order by 1`,
    );
    expect(left).toEqual([
      { unit: 'DF', n: 1 },
      { unit: 'SP', n: 1 },
    ]);
    await expect(files.get(oldKey)).rejects.toThrow();
    await expect(files.get(photoKey)).rejects.toThrow();
    await expect(files.get(newKey)).resolves.toEqual(Buffer.from('foto recente'));
    const events = await selectRows<{ payload: Record<string, unknown> }>(
      db,
      sql`select payload from activity_log where type = 'retention_purge'`,
    );
    expect(events).toEqual([
      { payload: { verifications: 1, enrolments: 1, photos: 1, events: 0, retentionDays: 100 } },
    ]);

    // Nothing more to purge on a second run.
    expect(
      (await purgeExpiredPersonalData(deps(), { defaultDays: 365, byUnit: { DF: 100 } })).DF,
    ).toEqual({
      verifications: 0,
      enrolments: 0,
      photos: 0,
      events: 0,
    });
  });

  it('a check-in capture goes with its verification; the check-in record stays, without the face', async () => {
    const db = t.database.db;
    const files = t.app.files;
    const examiner = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    const [local] = await db
      .insert(schedulingLocals)
      .values({ federativeUnit: 'DF', identifier: 'DF.RETENCAO', description: 'Posto Retenção' })
      .returning();
    const [record] = await db
      .insert(checkIns)
      .values({
        federativeUnit: 'DF',
        schedulingLocalId: local!.id,
        schedulingLocal: 'DF.RETENCAO',
        openedBy: examiner.id,
        faceValidationRequired: true,
        openedAt: daysAgo(200),
      })
      .returning();
    const entry = await files.put(Buffer.from('entrada antiga'));
    const exit = await files.put(Buffer.from('saída antiga'));
    const verifications = await db
      .insert(biometricVerifications)
      .values(
        [entry, exit].map((captureKey) => ({
          federativeUnit: 'DF',
          cpf: examiner.cpf,
          match: true,
          verified: true,
          threshold: 0.57,
          captureKey,
          createdAt: daysAgo(200),
        })),
      )
      .returning({ id: biometricVerifications.id });
    await db.insert(checkInViewers).values({
      checkInId: record!.id,
      federativeUnit: 'DF',
      userId: examiner.id,
      name: examiner.name,
      cpf: examiner.cpf,
      checkInDate: daysAgo(200),
      verificationId: verifications[0]!.id,
      faceKey: entry,
      checkOutDate: daysAgo(200),
      checkOutValidated: true,
      checkOutVerificationId: verifications[1]!.id,
      checkOutFaceKey: exit,
      active: false,
    });

    const counts = await purgeExpiredPersonalData(deps(), {
      defaultDays: 365,
      byUnit: { DF: 100 },
    });
    expect(counts.DF?.verifications).toBeGreaterThanOrEqual(2);
    await expect(files.get(entry)).rejects.toThrow();
    await expect(files.get(exit)).rejects.toThrow();
    const [viewer] = await selectRows<Record<string, unknown>>(
      db,
      sql`select face_key, check_out_face_key, verification_id, check_out_validated, name from check_in_viewers where user_id = ${examiner.id}`,
    );
    expect(viewer).toEqual({
      face_key: null,
      check_out_face_key: null,
      verification_id: null,
      check_out_validated: true,
      name: examiner.name,
    });
  });

  it('replaces the CPF of old biometric events by a keyed pseudonym, per unit period', async () => {
    const db = t.database.db;
    const cpf = '98765432100';
    await db.insert(activityLog).values([
      { type: 'face_image_view', federativeUnit: 'DF', payload: { cpf }, createdAt: daysAgo(150) },
      {
        type: 'biometric_enrol',
        federativeUnit: 'DF',
        payload: { cpf, captures: 1 },
        createdAt: daysAgo(150),
      },
      { type: 'face_image_view', federativeUnit: 'DF', payload: { cpf }, createdAt: daysAgo(20) },
      { type: 'face_image_view', federativeUnit: 'SP', payload: { cpf }, createdAt: daysAgo(150) },
    ]);
    const counts = await purgeExpiredPersonalData(deps(), {
      defaultDays: 365,
      byUnit: { DF: 100 },
    });
    expect(counts.DF?.events).toBe(2);
    const rows = await selectRows<{ unit: string; payload: Record<string, unknown> }>(
      db,
      // Two events share their time: the type orders them (the view first).
      sql`select federative_unit as unit, payload from activity_log where type in ('face_image_view', 'biometric_enrol') order by created_at, type desc`,
    );
    const old = rows.filter((row) => row.unit === 'DF' && !('cpf' in row.payload));
    expect(old).toHaveLength(2);
    expect(JSON.stringify(old)).not.toContain(cpf);
    // The same person has the same pseudonym: events can still be linked without the CPF.
    expect(old[0]?.payload.cpfPseudonym).toBe(t.app.pseudonym(cpf));
    expect(old[1]?.payload).toMatchObject({ cpfPseudonym: t.app.pseudonym(cpf), captures: 1 });
    // Recent DF events and SP events (365 days) keep it.
    expect(rows.filter((row) => row.payload.cpf === cpf)).toHaveLength(2);
  });

  it('purges operational data by its own period, and files no row references', async () => {
    const db = t.database.db;
    const now = new Date();
    const user = await seedUser(t.app);
    await db.insert(sessions).values([
      { tokenHash: 'velha', userId: user.id, expiresAt: daysAgo(40) },
      { tokenHash: 'revogada', userId: user.id, expiresAt: daysAgo(-1), revokedAt: daysAgo(31) },
      { tokenHash: 'viva', userId: user.id, expiresAt: daysAgo(-1) },
    ]);
    await db.insert(mailOutbox).values([
      { recipient: 'a@x.gov.br', subject: 's', text: 't', html: 'h', createdAt: daysAgo(31) },
      {
        recipient: 'b@x.gov.br',
        subject: 's',
        text: '{{link}}',
        html: '{{link}}',
        link: 'https://x/reset-password/1#token=expirado',
        linkExpiresAt: new Date(now.getTime() - 1000),
      },
      {
        recipient: 'c@x.gov.br',
        subject: 's',
        text: '{{link}}',
        html: '{{link}}',
        link: 'https://x/reset-password/1#token=valido',
        linkExpiresAt: new Date(now.getTime() + 60_000),
      },
    ]);
    await db.insert(loginThrottle).values([
      { key: 'account:velha@x.gov.br', failures: 3, lastFailureAt: daysAgo(1) },
      // Failed an hour before the purge runs (see `later` below).
      {
        key: 'account:recente@x.gov.br',
        failures: 3,
        lastFailureAt: new Date(now.getTime() + 1.45 * DAY),
      },
    ]);
    await db.insert(rateLimits).values([
      { key: 'link-ip:velho', windowStart: daysAgo(2), hits: 1 },
      { key: 'link-ip:novo', windowStart: now, hits: 1 },
    ]);
    await db.insert(trustedDevices).values([
      { tokenHash: 'expirado', userId: user.id, expiresAt: daysAgo(1) },
      { tokenHash: 'valido', userId: user.id, expiresAt: daysAgo(-10) },
    ]);
    await db
      .insert(passwordLinkRequests)
      .values([{ kind: 'reset', value: 'velho@x.gov.br', requestedAt: daysAgo(2) }]);
    await db.insert(realtimeEvents).values([
      { federativeUnit: 'DF', kind: 'exam_changed', createdAt: daysAgo(6) },
      { federativeUnit: 'DF', kind: 'exam_changed', createdAt: daysAgo(5) },
    ]);
    // A file written for an enrolment whose transaction failed: nothing references it.
    const orphan = await t.app.files.put(Buffer.from('órfão'));
    const referenced = await t.app.files.put(Buffer.from('em uso'));
    await db.insert(biometricTemplates).values({
      federativeUnit: 'DF',
      cpf: '52998224725',
      templateSealed: 'x',
      imageKeys: [referenced],
    });
    // A check-in capture: kept by its verification and by the examiner's record.
    const capture = await t.app.files.put(Buffer.from('captura da entrada'));
    await db.insert(biometricVerifications).values({
      federativeUnit: 'DF',
      cpf: '52998224725',
      match: true,
      verified: true,
      threshold: 0.57,
      captureKey: capture,
    });
    // Seen a day and a half later.
    const later = new Date(now.getTime() + 1.5 * DAY);
    // Face challenges: one expired a day and a half before the purge, one issued just before it.
    const challenge = {
      federativeUnit: 'DF',
      requestedBy: user.id,
      cpf: '52998224725',
      purpose: 'verification' as const,
      steps: ['left', 'up'],
    };
    const [, fresh] = await db
      .insert(faceChallenges)
      .values([
        { ...challenge, createdAt: new Date(now.getTime() - 60_000), expiresAt: now },
        {
          ...challenge,
          createdAt: new Date(later.getTime() - 30_000),
          expiresAt: new Date(later.getTime() + 30_000),
        },
      ])
      .returning({ id: faceChallenges.id });
    // Examiner 2's confirmations: one expired a day and a half before the purge, one still live.
    const token = {
      federativeUnit: 'DF',
      issuedTo: user.id,
      issuedSession: 's',
      personId: user.id,
      schedulingLocal: 'DF.POSTO01',
    };
    const [, liveToken] = await db
      .insert(proctoringTokens)
      .values([
        { ...token, tokenHash: 'vencido', expiresAt: now },
        { ...token, tokenHash: 'vivo', expiresAt: new Date(later.getTime() + 60_000) },
      ])
      .returning({ id: proctoringTokens.id });
    // Sign-ins through an identity provider: one ended before the purge, one handed off just before it.
    const [provider] = await db
      .insert(identityProviders)
      .values({ federativeUnit: 'DF', name: 'Provedor', issuer: 'https://idp.x', clientId: 'c' })
      .returning({ id: identityProviders.id });
    const sso = { providerId: provider!.id, codeVerifier: 'v', nonce: 'n', browserHash: 'b' };
    await db.insert(ssoLogins).values([
      { ...sso, stateHash: 'encerrado', expiresAt: now },
      {
        ...sso,
        stateHash: 'entregue',
        expiresAt: later,
        handoffHash: 'passagem',
        userId: user.id,
        handoffExpiresAt: new Date(later.getTime() + 30_000),
      },
    ]);
    // Steps after a password: one past its end at the purge, one still running.
    await db.insert(mfaTickets).values([
      { keyHash: 'passo-vencido', userId: user.id, purpose: 'sign-in', expiresAt: now },
      {
        keyHash: 'passo-vivo',
        userId: user.id,
        purpose: 'sign-in',
        expiresAt: new Date(later.getTime() + 60_000),
      },
    ]);
    const counts = await purgeOperationalData(deps(), later);
    expect(counts).toMatchObject({
      mfaTickets: 1,
      ssoLogins: 1,
      proctoringTokens: 1,
      sessions: 2,
      mailDeleted: 1,
      rateLimits: 2,
      devices: 1,
      linkRequests: 1,
      // Six days old, seven and a half at the purge; the other is six and a half.
      realtimeEvents: 1,
      faceChallenges: 1,
    });
    expect(counts.linksCleared).toBe(2);
    expect(counts.orphanFiles).toBeGreaterThanOrEqual(1);
    await expect(t.app.files.get(orphan)).rejects.toThrow();
    await expect(t.app.files.get(referenced)).resolves.toEqual(Buffer.from('em uso'));
    await expect(t.app.files.get(capture)).resolves.toEqual(Buffer.from('captura da entrada'));
    const keys = await selectRows<{ key: string }>(db, sql`select key from login_throttle`);
    expect(keys).toEqual([{ key: 'account:recente@x.gov.br' }]);
    const left = await selectRows<{ token_hash: string }>(db, sql`select token_hash from sessions`);
    expect(left.map((row) => row.token_hash)).toContain('viva');
    const links = await selectRows<{ link: string | null }>(
      db,
      sql`select link from mail_outbox where recipient in ('b@x.gov.br', 'c@x.gov.br')`,
    );
    expect(links).toEqual([{ link: null }, { link: null }]);
    const challenges = await selectRows<{ id: string }>(db, sql`select id from face_challenges`);
    expect(challenges).toEqual([{ id: fresh?.id }]);
    const tokens = await selectRows<{ id: string }>(db, sql`select id from proctoring_tokens`);
    expect(tokens).toEqual([{ id: liveToken?.id }]);
  });
});
