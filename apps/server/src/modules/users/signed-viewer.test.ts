/**
 * A signed image address (an enrolment capture, a check-in capture, an exam
 * photo) is checked against its viewer each time it is served: once the
 * viewer is disabled, moved to another unit or given a role that does not
 * see such images, it stops at once, not when it expires
 * (SIGNED_URL_TTL_SECONDS). Enabled again with the same role, it opens.
 */
import { BIOPASS_ERRORS, EXAM_ERRORS, type Role } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { biometricTemplates, biometricVerifications } from '../../db/schema/index';
import { selectRows } from '../../db/select-rows';
import type { SignedRoute } from '../../lib/file-storage';
import { signedPath } from '../../lib/signed-access';
import { createApiKeyFor, examPayload, pushExams, sampleJpeg } from '../../../test/exams';
import { buildTestApp, engineName, type TestApp } from '../../../test/helper';
import { nextCpf, seedSignedIn } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Kind = { route: SignedRoute; path: string; subject: string; refusal: string };

describe(`signed image addresses check their viewer when served (${engineName})`, () => {
  let t: TestApp;
  let admin: Signed;
  const kinds: Record<'enrolment' | 'checkIn' | 'examPhoto', Kind> = {} as never;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const jpeg = await sampleJpeg(200, 3);
    // An enrolment capture and a check-in capture, stored and recorded as the face flows do.
    const enrolmentKey = await t.app.files.put(jpeg);
    await t.database.db.insert(biometricTemplates).values({
      federativeUnit: 'DF',
      cpf: nextCpf(),
      templateSealed: 'selado',
      imageKeys: [enrolmentKey],
    });
    const captureKey = await t.app.files.put(jpeg);
    await t.database.db.insert(biometricVerifications).values({
      federativeUnit: 'DF',
      cpf: nextCpf(),
      match: true,
      verified: true,
      threshold: 0.6,
      captureKey,
    });
    // An exam photo, sent by the integration.
    const key = await createApiKeyFor(t.app, admin.auth, 'Chave de fotos');
    await pushExams(t.app, key.key, [examPayload({ schedulingId: 'ASSINADA-1' })]);
    const photo = await t.app.inject({
      method: 'POST',
      url: '/api/Integration/exams/ASSINADA-1/photos',
      headers: { 'x-api-key': key.key },
      payload: { image: jpeg.toString('base64'), capturedAt: '2026-11-20T10:20:00-03:00' },
    });
    expect(photo.statusCode, photo.body).toBe(200);
    const [row] = await selectRows<{ id: string }>(
      t.database.db,
      sql`select p.id from exam_photos p join exams e on e.id = p.exam_id
          where e.scheduling_id = 'ASSINADA-1'`,
    );
    kinds.enrolment = {
      route: 'face-image',
      path: `/api/BiopassID/image/${enrolmentKey}`,
      subject: enrolmentKey,
      refusal: 'FACE_IMAGE_LINK_INVALID',
    };
    kinds.checkIn = {
      route: 'check-in-face',
      path: `/api/SchedulingLocalCheckIn/face/${captureKey}`,
      subject: captureKey,
      refusal: 'FACE_IMAGE_LINK_INVALID',
    };
    kinds.examPhoto = {
      route: 'exam-photo',
      path: `/api/ExamPhoto/${row!.id}`,
      subject: row!.id,
      refusal: 'PHOTO_LINK_INVALID',
    };
  });
  afterAll(() => t.close());

  /** The address of `kind` for `viewer`, as the screens get it, valid for five minutes. */
  const addressOf = (kind: Kind, viewer: Signed) =>
    signedPath(
      t.app.files,
      kind.route,
      kind.path,
      kind.subject,
      viewer.user.id,
      Date.now() + 300_000,
    );
  const open = (address: string) => t.app.inject({ method: 'GET', url: address });
  const setStatus = (who: Signed, registerStatus: 'enabled' | 'disabled') =>
    t.app.inject({
      method: 'PUT',
      url: `/api/User/${who.user.id}/enableDisable`,
      headers: admin.auth,
      payload: { registerStatus },
    });
  const setRole = (who: Signed, role: Role) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/User/${who.user.id}/role`,
      headers: admin.auth,
      payload: { role },
    });
  const expectRefused = async (address: string, kind: Kind) => {
    const answer = await open(address);
    expect(answer.statusCode, `${kind.path}: ${answer.body}`).toBe(403);
    const message =
      kind.refusal === 'PHOTO_LINK_INVALID'
        ? EXAM_ERRORS.PHOTO_LINK_INVALID.message
        : BIOPASS_ERRORS.FACE_IMAGE_LINK_INVALID.message;
    expect(answer.json()).toMatchObject({ code: kind.refusal, Error: message });
  };

  it('a disabled viewer: every address they hold stops at once; enabled again, it opens', async () => {
    const auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    const addresses = Object.values(kinds).map((kind) => ({ kind, url: addressOf(kind, auditor) }));
    for (const { url } of addresses) expect((await open(url)).statusCode, url).toBe(200);
    expect((await setStatus(auditor, 'disabled')).statusCode).toBe(200);
    for (const { kind, url } of addresses) await expectRefused(url, kind);
    expect((await setStatus(auditor, 'enabled')).statusCode).toBe(200);
    for (const { url } of addresses) expect((await open(url)).statusCode, url).toBe(200);
  });

  it('a role that does not see such images: enrolment captures and exam photos stop; a check-in capture (any role reads records) does not', async () => {
    const auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    const enrolment = addressOf(kinds.enrolment, auditor);
    const photo = addressOf(kinds.examPhoto, auditor);
    const capture = addressOf(kinds.checkIn, auditor);
    expect((await setRole(auditor, 'VIEWER')).statusCode).toBe(200);
    await expectRefused(enrolment, kinds.enrolment);
    await expectRefused(photo, kinds.examPhoto);
    expect((await open(capture)).statusCode).toBe(200);
  });

  it('a viewer now of another unit: every address stops; the views written are only those served', async () => {
    const auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    const addresses = Object.values(kinds).map((kind) => ({ kind, url: addressOf(kind, auditor) }));
    const views = async () =>
      (
        await selectRows<{ count: number }>(
          t.database.db,
          sql`select count(*)::int as count from activity_log
              where actor_id = ${auditor.user.id} and type in ('face_image_view', 'photo_view')`,
        )
      )[0]!.count;
    await t.database.db.execute(
      sql`update users set federative_unit = 'SP' where id = ${auditor.user.id}`,
    );
    for (const { kind, url } of addresses) await expectRefused(url, kind);
    expect(await views()).toBe(0);
  });
});
