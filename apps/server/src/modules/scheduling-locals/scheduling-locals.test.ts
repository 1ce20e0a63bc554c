import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';

describe('scheduling locals', () => {
  let t: TestApp;
  let dfAdmin: Awaited<ReturnType<typeof seedSignedIn>>;
  let spAdmin: Awaited<ReturnType<typeof seedSignedIn>>;
  beforeAll(async () => {
    t = await buildTestApp();
    dfAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    spAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
  });
  afterAll(() => t.close());

  const create = (auth: { authorization: string }, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/SchedulingLocal', headers: auth, payload });

  it('creates, lists, searches, edits and deactivates in the ADMIN unit', async () => {
    const created = await create(dfAdmin.auth, {
      identifier: 'DF.TAGUATINGA',
      description: 'Posto Taguatinga',
      address: 'QNA 1',
      federativeUnit: 'SP',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      federativeUnit: 'DF',
      isActive: true,
      identifier: 'DF.TAGUATINGA',
    });
    await create(dfAdmin.auth, { identifier: 'DF.GAMA', description: 'Posto Gama' });
    const search = await t.app.inject({
      method: 'GET',
      url: '/api/SchedulingLocal?search=tagua',
      headers: dfAdmin.auth,
    });
    expect(search.json().items.map((local: { identifier: string }) => local.identifier)).toEqual([
      'DF.TAGUATINGA',
    ]);
    const id = created.json().id;
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/SchedulingLocal/${id}`,
      headers: dfAdmin.auth,
      payload: { description: 'Posto Taguatinga Norte', isActive: false },
    });
    expect(edited.json()).toMatchObject({ description: 'Posto Taguatinga Norte', isActive: false });
    const active = await t.app.inject({
      method: 'GET',
      url: '/api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/df',
      headers: dfAdmin.auth,
    });
    expect(active.json().map((local: { identifier: string }) => local.identifier)).toEqual([
      'DF.GAMA',
    ]);
  });

  it('refuses duplicates and bad identifiers with pt-BR messages', async () => {
    await create(dfAdmin.auth, { identifier: 'DF.CEILANDIA', description: 'Posto Ceilândia' });
    const duplicate = await create(dfAdmin.auth, {
      identifier: 'DF.CEILANDIA',
      description: 'Outro',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      Error: 'Já existe um posto com este identificador na unidade.',
      code: 'LOCAL_IDENTIFIER_TAKEN',
    });
    // The same identifier in another unit is fine.
    expect(
      (await create(spAdmin.auth, { identifier: 'DF.CEILANDIA', description: 'Homônimo' }))
        .statusCode,
    ).toBe(201);
    const bad = await create(dfAdmin.auth, { identifier: 'DF-POSTO 1', description: 'X' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((detail: { message: string }) => detail.message)).toEqual(
      expect.arrayContaining([
        'O identificador aceita letras, números, ponto, sublinhado e hífen.',
        'Informe o nome do posto.',
      ]),
    );
  });

  it('a dash in the identifier: CE posts (spec 7 keeps their whole local), not other units', async () => {
    const ceAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'CE' });
    const ce = await create(ceAdmin.auth, {
      identifier: 'CE.FORTALEZA-CENTRO',
      description: 'Posto Fortaleza Centro',
    });
    expect(ce.statusCode).toBe(201);
    expect(ce.json()).toMatchObject({ federativeUnit: 'CE', identifier: 'CE.FORTALEZA-CENTRO' });
    // Outside CE the text after a dash is the room (DEMO.POSTO01-S2): refused, saying why.
    const df = await create(dfAdmin.auth, { identifier: 'DF.POSTO-1', description: 'Posto' });
    expect(df.statusCode).toBe(400);
    expect(df.json()).toMatchObject({
      code: 'LOCAL_IDENTIFIER_INVALID',
      Error:
        'Nesta unidade o identificador não pode ter hífen: nos exames, o que vem depois do hífen é a sala.',
    });
    const local = (
      await create(dfAdmin.auth, { identifier: 'DF.RECANTO', description: 'Posto Recanto' })
    ).json();
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/SchedulingLocal/${local.id}`,
      headers: dfAdmin.auth,
      payload: { identifier: 'DF.RECANTO-2' },
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().code).toBe('LOCAL_IDENTIFIER_INVALID');
  });

  it('tenant isolation: another unit can neither see nor change the locals', async () => {
    const local = (
      await create(dfAdmin.auth, { identifier: 'DF.SOBRADINHO', description: 'Posto Sobradinho' })
    ).json();
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/SchedulingLocal/${local.id}`,
      headers: spAdmin.auth,
      payload: { isActive: false },
    });
    expect(edit.statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/SchedulingLocal?pageSize=200',
      headers: spAdmin.auth,
    });
    expect(list.json().items.some((item: { id: string }) => item.id === local.id)).toBe(false);
    const byUnit = await t.app.inject({
      method: 'GET',
      url: '/api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/DF',
      headers: spAdmin.auth,
    });
    expect(byUnit.statusCode).toBe(403);
  });
});
