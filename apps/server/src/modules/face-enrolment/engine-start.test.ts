/**
 * When the face engine starts: not with the server, nor with requests that
 * read no face, but with the first face challenge, so that its models load
 * while the person turns their head (face-challenges.service.ts). The engine
 * is the real pool of worker threads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FacePool } from '../../biometrics/face-pool';
import { buildTestApp, engineName, type TestApp } from '../../../test/helper';
import { seedSignedIn, seedUser } from '../../../test/identity';

describe(`the face engine starts with the first face challenge (${engineName})`, () => {
  let face: FacePool;
  let t: TestApp;

  beforeAll(async () => {
    face = new FacePool({ threads: 1 });
    t = await buildTestApp({ faceService: face });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await face?.close();
  });

  it('a server that reads no face never loads the models; the first challenge starts them, and they get ready', async () => {
    expect(face.started).toBe(false);
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const person = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    // The users list, and the enrolment of someone not enrolled yet (read from the database only).
    for (const [url, status] of [
      ['/api/User?page=1&pageSize=10', 200],
      [`/api/BiopassID/${person.cpf}`, 404],
    ] as const) {
      const answer = await t.app.inject({ method: 'GET', url, headers: admin.auth });
      expect(answer.statusCode, answer.body).toBe(status);
    }
    expect(face.started).toBe(false);

    const challenge = await t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Challenge',
      headers: admin.auth,
      payload: { purpose: 'enrolment', cpf: person.cpf },
    });
    expect(challenge.statusCode, challenge.body).toBe(201);
    expect(face.started).toBe(true);
    await expect(face.ready()).resolves.toBeUndefined();
  }, 60_000);
});
