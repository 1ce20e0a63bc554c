/**
 * The SQL of the BiopassID module on the database tier under test (PGlite,
 * and PostgreSQL when TEST_DATABASE_URL is set), without the face engine.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { biometricVerifications } from '../../db/schema/index';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { nextCpf, seedSignedIn } from '../../../test/identity';
import {
  findTemplate,
  findTemplateOwnerByImageKey,
  insertVerification,
  lockTemplateImageKeys,
  replaceTemplateIfUnchanged,
  upsertTemplate,
} from './face-enrolment.repository';

describe('biopass repository', () => {
  let t: TestApp;
  let adminId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    adminId = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' })).user.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const enrolment = (cpf: string, templateSealed: string, imageKeys: string[]) => ({
    federativeUnit: 'DF',
    cpf,
    templateSealed,
    descriptorVersion: 'v-teste',
    imageKeys,
    enrolledBy: adminId,
  });

  it('creates an enrolment, replaces it, and locks its capture keys in a transaction', async () => {
    const db = t.database.db;
    const cpf = nextCpf();
    expect(await findTemplate(db, 'DF', cpf)).toBeNull();
    const first = [randomUUID()];
    await upsertTemplate(db, enrolment(cpf, 'selado-1', first), new Date());
    expect(await findTemplate(db, 'DF', cpf)).toMatchObject({ templateSealed: 'selado-1' });
    // Another unit does not see it.
    expect(await findTemplate(db, 'SP', cpf)).toBeNull();

    const second = [randomUUID(), randomUUID()];
    const previous = await db.transaction(async (tx) => {
      const locked = await lockTemplateImageKeys(tx, 'DF', cpf);
      await upsertTemplate(tx, enrolment(cpf, 'selado-2', second), new Date());
      return locked;
    });
    expect(previous).toEqual(first);
    expect(await findTemplate(db, 'DF', cpf)).toMatchObject({
      templateSealed: 'selado-2',
      imageKeys: second,
    });
    expect(await db.transaction((tx) => lockTemplateImageKeys(tx, 'DF', nextCpf()))).toBeNull();
  });

  it('replaces descriptors only when the template is still the one that was read', async () => {
    const db = t.database.db;
    const cpf = nextCpf();
    await upsertTemplate(db, enrolment(cpf, 'antigo', [randomUUID()]), new Date());
    const read = await findTemplate(db, 'DF', cpf);
    if (!read) throw new Error('sem cadastro');
    const next = { templateSealed: 'novo', descriptorVersion: 'v-novo' };
    expect(await replaceTemplateIfUnchanged(db, read, next)).toBe(true);
    // `read` is stale now: a second writer loses.
    expect(await replaceTemplateIfUnchanged(db, read, { ...next, templateSealed: 'outro' })).toBe(
      false,
    );
    expect(await findTemplate(db, 'DF', cpf)).toMatchObject(next);
  });

  it('finds the owner of a stored capture by its exact key', async () => {
    const db = t.database.db;
    const cpf = nextCpf();
    const key = randomUUID();
    await upsertTemplate(db, enrolment(cpf, 'selado', [randomUUID(), key]), new Date());
    expect(await findTemplateOwnerByImageKey(db, key)).toEqual({ federativeUnit: 'DF', cpf });
    expect(await findTemplateOwnerByImageKey(db, key.slice(0, 8))).toBeNull();
    expect(await findTemplateOwnerByImageKey(db, randomUUID())).toBeNull();
  });

  it('records a verification with the challenge it answered and the own factor, and returns its id', async () => {
    const challengeId = randomUUID();
    const id = await insertVerification(t.database.db, {
      federativeUnit: 'DF',
      cpf: nextCpf(),
      requestedBy: adminId,
      match: false,
      threshold: 0.57,
      challengeId,
      ownFactor: 'password',
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await t.database.db
      .select({
        challengeId: biometricVerifications.challengeId,
        ownFactor: biometricVerifications.ownFactor,
        errorCode: biometricVerifications.errorCode,
      })
      .from(biometricVerifications)
      .where(eq(biometricVerifications.id, id));
    // A take that did not answer its challenge writes no row at all: no error code is recorded.
    expect(row).toEqual({ challengeId, ownFactor: 'password', errorCode: null });
  });
});
