import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { createApiKeyFor, examPayload, postExams } from '../../../test/exams';
import { lastMailTo, nextCpf, seedSignedIn, seedUser, signInAs } from '../../../test/identity';

type Auth = { authorization: string };

describe('users API', () => {
  let t: TestApp;
  let dfAdmin: Awaited<ReturnType<typeof seedSignedIn>>;
  let spAdmin: Awaited<ReturnType<typeof seedSignedIn>>;
  beforeAll(async () => {
    t = await buildTestApp();
    dfAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF', name: 'Admin DF' });
    spAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP', name: 'Admin SP' });
  });
  afterAll(() => t.close());

  const create = (auth: Auth, payload: Record<string, unknown>, url = '/api/User/admin') =>
    t.app.inject({ method: 'POST', url, headers: auth, payload });

  it("creates a user in the ADMIN's unit, ignoring a unit sent in the body, and sends the register link", async () => {
    const cpf = nextCpf();
    const response = await create(dfAdmin.auth, {
      name: '  Joana Examinadora ',
      email: 'Joana.Exam@Detran.DF.gov.br',
      cpf: `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
      role: 'VIEWER',
      federativeUnit: 'SP',
      registerStatus: 'disabled',
      passwordHash: 'x',
      __proto__: { isAdmin: true },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      name: 'Joana Examinadora',
      email: 'joana.exam@detran.df.gov.br',
      cpf,
      federativeUnit: 'DF',
      roleDescription: 'VIEWER',
      registerStatus: 'enabled',
      hasPassword: false,
    });
    const mail = await lastMailTo(t.app, 'joana.exam@detran.df.gov.br');
    expect(mail?.subject).toBe('Cadastre sua senha de acesso');
    expect(mail?.link?.path).toBe(`/register-password/${cpf}`);
    const events = await t.database.db.execute(
      sql`select type, actor_id, federative_unit, payload from activity_log where type = 'user_add'`,
    );
    expect((events as unknown as { rows: Array<Record<string, unknown>> }).rows).toEqual([
      expect.objectContaining({
        type: 'user_add',
        actor_id: dfAdmin.user.id,
        federative_unit: 'DF',
      }),
    ]);
  });

  it('refuses bad input with pt-BR messages and writes nothing', async () => {
    const countUsers = async () =>
      (await selectRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from users`))[0]
        ?.n;
    const before = await countUsers();
    const response = await create(dfAdmin.auth, {
      name: 'Jo',
      email: 'não-é-email',
      cpf: '111.111.111-11',
      role: 'CHEFE',
    });
    expect(response.statusCode).toBe(400);
    const messages = (response.json().details as Array<{ path: string; message: string }>).map(
      (detail) => `${detail.path}: ${detail.message}`,
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        'body.name: Informe o nome completo.',
        'body.email: E-mail inválido.',
        'body.cpf: CPF inválido.',
        'body.role: Selecione um perfil válido.',
      ]),
    );
    expect(await countUsers()).toBe(before);
  });

  it('duplicates are a 409 with a clear message, and nothing half-written', async () => {
    const existing = await seedUser(t.app, { unit: 'SP' });
    const sameEmail = await create(dfAdmin.auth, {
      name: 'Outra Pessoa',
      email: existing.email,
      cpf: nextCpf(),
      role: 'VIEWER',
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toMatchObject({
      Error: 'Já existe um usuário com este e-mail.',
      code: 'USER_EMAIL_TAKEN',
    });
    const sameCpf = await create(dfAdmin.auth, {
      name: 'Outra Pessoa',
      email: 'nova@teste.gov.br',
      cpf: existing.cpf,
      role: 'VIEWER',
    });
    expect(sameCpf.json()).toMatchObject({
      Error: 'Já existe um usuário com este CPF.',
      code: 'USER_CPF_TAKEN',
    });
    expect(await lastMailTo(t.app, 'nova@teste.gov.br')).toBeUndefined();
  });

  it('two creations of the same person at once: exactly one wins', async () => {
    const payload = {
      name: 'Corrida Dupla',
      email: 'corrida@teste.gov.br',
      cpf: nextCpf(),
      role: 'VIEWER',
    };
    const results = await Promise.all([
      create(dfAdmin.auth, payload),
      create(dfAdmin.auth, payload),
    ]);
    expect(results.map((response) => response.statusCode).sort()).toEqual([201, 409]);
  });

  it("the demo user lands in the caller's own unit, flagged as demo, and cannot be an ADMIN", async () => {
    const demo = await create(
      dfAdmin.auth,
      { name: 'Demo Pessoa', email: 'demo1@teste.gov.br', cpf: nextCpf(), role: 'auditor' },
      '/api/User',
    );
    expect(demo.statusCode).toBe(201);
    expect(demo.json().federativeUnit).toBe('DF');
    const [flag] = await selectRows<{ is_demo: boolean }>(
      t.database.db,
      sql`select is_demo from users where id = ${demo.json().id}`,
    );
    expect(flag?.is_demo).toBe(true);
    const admin = await create(
      dfAdmin.auth,
      { name: 'Demo Admin', email: 'demo2@teste.gov.br', cpf: nextCpf(), role: 'ADMIN' },
      '/api/User',
    );
    expect(admin.statusCode).toBe(400);
    expect(admin.json().code).toBe('DEMO_ROLE_NOT_ALLOWED');
  });

  it('the reviewed probe: a DF ADMIN cannot reach DEMO exams through a demo user', async () => {
    // DEMO holds exams with full candidate CPFs, as on every installation in demo mode.
    const demoAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DEMO' });
    const demoKey = (await createApiKeyFor(t.app, demoAdmin.auth)).key;
    const pushed = await postExams(t.app, demoKey, [
      examPayload({ schedulingId: 'DEMO-SONDA-1', metadata: { schedulingLocal: 'DEMO.P1' } }),
    ]);
    expect(pushed.statusCode).toBeLessThan(300);
    const demoUsersBefore = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from users where federative_unit = 'DEMO'`,
    );

    const email = 'sonda.externa@gmail.com';
    const created = await create(
      dfAdmin.auth,
      { name: 'Sonda Externa', email, cpf: nextCpf(), role: 'auditor' },
      '/api/User',
    );
    expect(created.statusCode).toBe(201);
    const link = (await lastMailTo(t.app, email))?.link;
    expect(link).toBeDefined();
    const set = await t.app.inject({
      method: 'PATCH',
      url: '/api/User/password',
      payload: { cpf: link?.cpf, token: link?.token, password: 'Sonda#Externa2026' },
    });
    expect(set.statusCode).toBe(200);
    const token = await signInAs(t.app, email, 'Sonda#Externa2026');
    const exams = await t.app.inject({
      method: 'GET',
      url: '/api/Exam?pageSize=100',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(exams.statusCode).toBe(200);
    expect(JSON.stringify(exams.json())).not.toContain('DEMO-SONDA-1');
    expect(
      exams.json().items.every((exam: { federativeUnit: string }) => exam.federativeUnit === 'DF'),
    ).toBe(true);
    const demoUsersAfter = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from users where federative_unit = 'DEMO'`,
    );
    expect(demoUsersAfter).toEqual(demoUsersBefore);
  });

  it('examiners and auditors see other users with masked CPF and e-mail; ADMIN and the user see them whole', async () => {
    const colleague = await seedUser(t.app, {
      unit: 'DF',
      role: 'VIEWER',
      name: 'Colega Examinadora',
      email: 'colega.examinadora@detran.df.gov.br',
    });
    const maskedCpf = `***.${colleague.cpf.slice(3, 6)}.${colleague.cpf.slice(6, 9)}-**`;
    for (const role of ['VIEWER', 'ROOM_INSPECTOR', 'auditor'] as const) {
      const caller = await seedSignedIn(t.app, { role, unit: 'DF' });
      const lookups = [
        `/api/User/cpfEmail/${colleague.email}`,
        `/api/User/cpfEmail/${colleague.cpf}`,
      ];
      if (role === 'auditor') lookups.push(`/api/User/cpf/${colleague.cpf}`);
      for (const url of lookups) {
        const response = await t.app.inject({ method: 'GET', url, headers: caller.auth });
        expect(response.statusCode, `${role} ${url}`).toBe(200);
        expect(response.json()).toMatchObject({
          name: 'Colega Examinadora',
          cpf: maskedCpf,
          email: 'c***@detran.df.gov.br',
        });
        expect(response.body).not.toContain(colleague.cpf);
      }
      const examiners = await t.app.inject({
        method: 'GET',
        url: '/api/User/GetAllExaminers',
        headers: caller.auth,
      });
      expect(examiners.body).not.toContain(colleague.cpf);
      expect(examiners.body).not.toContain(colleague.email);
      // Their own record stays whole.
      const self = await t.app.inject({
        method: 'GET',
        url: `/api/User/cpfEmail/${caller.user.email}`,
        headers: caller.auth,
      });
      expect(self.json()).toMatchObject({ cpf: caller.user.cpf, email: caller.user.email });
    }
    const wholeReads = () =>
      selectRows<{ actor: string; payload: { userIds: string[] } }>(
        t.database.db,
        sql`select actor_id as actor, payload from activity_log where type = 'cpf_view'
            and payload->'userIds' ? ${colleague.id}`,
      );
    // Masked answers are not recorded as reads of a whole CPF.
    expect(await wholeReads()).toEqual([]);
    const byAdmin = await t.app.inject({
      method: 'GET',
      url: `/api/User/cpfEmail/${colleague.email}`,
      headers: dfAdmin.auth,
    });
    expect(byAdmin.json()).toMatchObject({ cpf: colleague.cpf, email: colleague.email });
    // The ADMIN screen needs the whole CPF, and the read is written down.
    const reads = await wholeReads();
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ actor: dfAdmin.user.id });
    expect(JSON.stringify(reads)).not.toContain(colleague.cpf);
  });

  it('lists only the unit, paginated, with search by name, e-mail or CPF', async () => {
    for (let index = 0; index < 12; index += 1) {
      await seedUser(t.app, {
        unit: 'SP',
        role: 'VIEWER',
        name: `Servidor Paulista ${String(index).padStart(2, '0')}`,
      });
    }
    const target = await seedUser(t.app, {
      unit: 'SP',
      role: 'auditor',
      name: 'Zélia Auditora',
      email: 'zelia@sp.gov.br',
    });
    const page1 = await t.app.inject({
      method: 'GET',
      url: '/api/User?page=1&pageSize=5',
      headers: spAdmin.auth,
    });
    expect(page1.statusCode).toBe(200);
    const body = page1.json();
    expect(body.items).toHaveLength(5);
    expect(body.total).toBeGreaterThanOrEqual(14);
    expect(
      body.items.every((user: { federativeUnit: string }) => user.federativeUnit === 'SP'),
    ).toBe(true);
    const page3 = await t.app.inject({
      method: 'GET',
      url: '/api/User?page=3&pageSize=5',
      headers: spAdmin.auth,
    });
    const ids = new Set(
      [...body.items, ...page3.json().items].map((user: { id: string }) => user.id),
    );
    expect(ids.size).toBe(body.items.length + page3.json().items.length);
    // Nine digits of the CPF: shorter fragments of the random test CPFs can be shared by two users.
    for (const search of ['zélia', 'ZELIA@SP', target.cpf.slice(1, 10)]) {
      const found = await t.app.inject({
        method: 'GET',
        url: `/api/User?search=${encodeURIComponent(search)}`,
        headers: spAdmin.auth,
      });
      expect(
        found.json().items.map((user: { id: string }) => user.id),
        search,
      ).toEqual([target.id]);
    }
    // The DF admin never sees SP users, whatever the search.
    const fromDf = await t.app.inject({
      method: 'GET',
      url: '/api/User?search=zelia&pageSize=100',
      headers: dfAdmin.auth,
    });
    expect(fromDf.json().items).toEqual([]);
    const wildcard = await t.app.inject({
      method: 'GET',
      url: '/api/User?search=%25',
      headers: spAdmin.auth,
    });
    expect(wildcard.json().items).toEqual([]);
  });

  it('tenant isolation by id, CPF, e-mail and on changes', async () => {
    const spUser = await seedUser(t.app, { unit: 'SP', role: 'VIEWER' });
    const attempts = [
      t.app.inject({ method: 'GET', url: `/api/User/${spUser.id}`, headers: dfAdmin.auth }),
      t.app.inject({ method: 'GET', url: `/api/User/cpf/${spUser.cpf}`, headers: dfAdmin.auth }),
      t.app.inject({
        method: 'GET',
        url: `/api/User/cpfEmail/${spUser.email}`,
        headers: dfAdmin.auth,
      }),
      t.app.inject({
        method: 'PUT',
        url: `/api/User/${spUser.id}/enableDisable`,
        headers: dfAdmin.auth,
        payload: { registerStatus: 'disabled' },
      }),
      t.app.inject({
        method: 'PUT',
        url: `/api/User/${spUser.id}/role`,
        headers: dfAdmin.auth,
        payload: { role: 'ADMIN' },
      }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        Error: 'Usuário não encontrado!',
        code: 'USER_NOT_FOUND',
      });
    }
    const unchanged = await t.app.inject({
      method: 'GET',
      url: `/api/User/${spUser.id}`,
      headers: spAdmin.auth,
    });
    expect(unchanged.json()).toMatchObject({
      registerStatus: 'enabled',
      roleDescription: 'VIEWER',
    });
  });

  it('GetAllExaminers: enabled VIEWER and ROOM_INSPECTOR of the caller unit', async () => {
    const viewer = await seedSignedIn(t.app, { unit: 'PE', role: 'VIEWER' });
    const inspector = await seedUser(t.app, { unit: 'PE', role: 'ROOM_INSPECTOR' });
    await seedUser(t.app, { unit: 'PE', role: 'auditor' });
    await seedUser(t.app, { unit: 'PE', role: 'VIEWER', registerStatus: 'disabled' });
    await seedUser(t.app, { unit: 'PB', role: 'VIEWER' });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/User/GetAllExaminers',
      headers: viewer.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(
      response
        .json()
        .map((user: { id: string }) => user.id)
        .sort(),
    ).toEqual([viewer.user.id, inspector.id].sort());
  });

  it('an ADMIN cannot disable or demote themself', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/User/${dfAdmin.user.id}/enableDisable`,
      headers: dfAdmin.auth,
      payload: { registerStatus: 'disabled' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('USER_CANNOT_CHANGE_SELF');
  });

  it('enable/disable is recorded in the activity log', async () => {
    const target = await seedUser(t.app, { unit: 'DF', role: 'VIEWER' });
    await t.app.inject({
      method: 'PUT',
      url: `/api/User/${target.id}/enableDisable`,
      headers: dfAdmin.auth,
      payload: { registerStatus: 'disabled' },
    });
    const rows = await t.database.db.execute(
      sql`select type from activity_log where payload->>'userId' = ${target.id} order by created_at`,
    );
    expect(
      (rows as unknown as { rows: Array<{ type: string }> }).rows.map((row) => row.type),
    ).toEqual(['user_disable']);
  });
});
