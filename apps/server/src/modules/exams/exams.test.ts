import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyFor, createPost, examPayload, postExams } from '../../../test/exams';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';
import { parseCsv, parseImportDate, readExamCsv } from './csv-import';

describe('exam list and CSV import', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedSignedIn>>;
  let auditor: Awaited<ReturnType<typeof seedSignedIn>>;
  let key: string;

  /** An exam of a PE candidate at 09:00 (São Paulo) of `day` (or at the date-time given). */
  const exam = (
    schedulingId: string,
    [name, cpf]: [string, string],
    day: string,
    status: string,
    schedulingLocal: string,
    more: object = {},
  ) =>
    examPayload({
      schedulingId,
      candidate: { name, cpf },
      schedulingDate: day.includes('T') ? day : `${day}T09:00:00-03:00`,
      status,
      ...more,
      metadata: { schedulingLocal },
    });
  const push = (exams: object[]) => postExams(t.app, key, exams);

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'PE' });
    auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'PE' });
    key = (await createApiKeyFor(t.app, admin.auth)).key;
    await createPost(t.app, admin.auth, 'PE.RECIFE01', 'Posto Recife Centro');
    const pushed = await push([
      exam('PE-1', ['Ana Lima', '52998224725'], '2026-11-10', 'done', 'PE.RECIFE01-S1', {
        result: 'approved',
      }),
      exam('PE-2', ['Bruno Costa', '11144477735'], '2026-11-11', 'done', 'PE.RECIFE01-S2', {
        result: 'reproved',
      }),
      exam('PE-3', ['Ana Souza', '12345678909'], '2026-11-12', 'absence', 'PE.OLINDA01-S1'),
      exam('PE-4', ['Carla Dias', '52998224725'], '2026-11-25', 'scheduled', 'PE.RECIFE01-S1'),
    ]);
    expect(pushed.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const list = (query: string, auth = auditor.auth) =>
    t.app.inject({ method: 'GET', url: `/api/Exam?${query}`, headers: auth });
  const detail = (schedulingId: string, auth = auditor.auth) =>
    t.app.inject({ method: 'GET', url: `/api/Exam/${schedulingId}`, headers: auth });
  const ids = (response: { json: () => { items: Array<{ schedulingId: string }> } }) =>
    response.json().items.map((exam) => exam.schedulingId);

  it('filters by date range, local, status, result and name or CPF', async () => {
    expect(ids(await list('sort=schedulingDate&order=asc'))).toEqual([
      'PE-1',
      'PE-2',
      'PE-3',
      'PE-4',
    ]);
    const range = `startDate=${encodeURIComponent('2026-11-11T00:00:00-03:00')}&endDate=${encodeURIComponent('2026-11-12T23:59:59-03:00')}`;
    expect(ids(await list(`${range}&order=asc`))).toEqual(['PE-2', 'PE-3']);
    expect(ids(await list('schedulingLocal=PE.RECIFE01&order=asc'))).toEqual([
      'PE-1',
      'PE-2',
      'PE-4',
    ]);
    expect(ids(await list('status[]=done&status[]=absence&order=asc'))).toEqual([
      'PE-1',
      'PE-2',
      'PE-3',
    ]);
    expect(ids(await list('result[]=approved'))).toEqual(['PE-1']);
    expect(ids(await list('search=ana&sort=candidateName&order=asc'))).toEqual(['PE-1', 'PE-3']);
    expect(ids(await list(`search=${encodeURIComponent('529.982.247-25')}&order=asc`))).toEqual([
      'PE-1',
      'PE-4',
    ]);
  });

  it('paginates and sorts on the server, with the local name', async () => {
    const page1 = await list('pageSize=2&page=1&sort=candidateName&order=asc');
    const page2 = await list('pageSize=2&page=2&sort=candidateName&order=asc');
    expect(page1.json().total).toBe(4);
    expect([...ids(page1), ...ids(page2)]).toEqual(['PE-1', 'PE-3', 'PE-2', 'PE-4']);
    const first = page1.json().items[0];
    expect(first).toMatchObject({
      candidateName: 'Ana Lima',
      schedulingLocalName: 'Posto Recife Centro',
    });
  });

  it('bad filters are a 400 in pt-BR', async () => {
    const reversed = await list(
      `startDate=${encodeURIComponent('2026-11-12T00:00:00-03:00')}&endDate=${encodeURIComponent('2026-11-10T00:00:00-03:00')}`,
    );
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({
      code: 'PERIOD_INVALID_RANGE',
      Error: 'A data final não pode ser anterior à data inicial.',
    });
    expect((await list('startDate=2026-02-30')).json().code).toBe('PERIOD_INVALID_START_DATE');
    expect((await list('endDate=ontem')).json().code).toBe('PERIOD_INVALID_END_DATE');
    expect((await list('status=terminado')).statusCode).toBe(400);
    expect((await list('pageSize=5000')).statusCode).toBe(400);
  });

  it('the period is the API contract: São Paulo days, both inclusive, as the report counts them', async () => {
    const pushed = await push([
      // 23:30 in São Paulo is already the next day in UTC (and in many browsers).
      exam(
        'PE-LATE',
        ['Davi Noite', '11144477735'],
        '2026-12-05T23:30:00-03:00',
        'scheduled',
        'PE.RECIFE01-S1',
      ),
    ]);
    expect(pushed.statusCode).toBe(200);
    const day = 'startDate=2026-12-05&endDate=2026-12-05';
    expect(ids(await list(day))).toEqual(['PE-LATE']);
    expect(ids(await list('startDate=2026-12-06&endDate=2026-12-06'))).toEqual([]);
    // Either bound may stay open; the same day rule applies.
    expect(ids(await list('startDate=2026-12-05'))).toEqual(['PE-LATE']);
    expect(ids(await list('endDate=2026-12-04&order=asc'))).toEqual([
      'PE-1',
      'PE-2',
      'PE-3',
      'PE-4',
    ]);
    // The exam list and the report agree on the same days.
    const report = await t.app.inject({
      method: 'GET',
      url: `/api/ExamReport?${day}`,
      headers: auditor.auth,
    });
    const counted = (report.json() as Array<{ report: { total: number } }>).reduce(
      (sum, local) => sum + local.report.total,
      0,
    );
    expect(counted).toBe((await list(day)).json().total);
  });

  it('another unit sees none of these exams', async () => {
    const other = await seedSignedIn(t.app, { role: 'auditor', unit: 'PB' });
    expect((await list('', other.auth)).json().total).toBe(0);
    expect((await detail('PE-1', other.auth)).statusCode).toBe(404);
  });

  it('detail has the candidate, the timeline and records load_exam', async () => {
    const response = await detail('PE-1');
    expect(response.statusCode).toBe(200);
    expect(response.json().exam).toMatchObject({
      candidateName: 'Ana Lima',
      status: 'done',
      result: 'approved',
    });
    expect(response.json().history).toEqual([
      expect.objectContaining({
        fromStatus: null,
        toStatus: 'done',
        toResult: 'approved',
        source: 'integration',
      }),
    ]);
    const events = await t.database.db.execute(
      sql`select payload from activity_log where type = 'load_exam' and actor_id = ${auditor.user.id}`,
    );
    expect((events as unknown as { rows: unknown[] }).rows).toEqual([
      { payload: { schedulingId: 'PE-1' } },
    ]);
  });

  const importCsv = (body: string, auth = admin.auth) =>
    t.app.inject({
      method: 'POST',
      url: '/api/Exam/import',
      headers: { ...auth, 'content-type': 'text/csv' },
      payload: body,
    });

  it('candidate CPFs leave masked, as every screen shows them; the whole CPF still finds them', async () => {
    for (const auth of [admin.auth, auditor.auth]) {
      const response = await list('search=529.982.247-25', auth);
      expect(ids(response).sort()).toEqual(['PE-1', 'PE-4']);
      expect(response.body).not.toContain('52998224725');
      expect(response.json().items[0].candidateCpf).toBe('***.982.247-**');
      const shown = await detail('PE-2', auth);
      expect(shown.json().exam.candidateCpf).toBe('***.444.777-**');
      expect(shown.body).not.toContain('11144477735');
    }
  });

  it('a file with bad rows imports nothing and lists each problem with its line', async () => {
    const csv = [
      'schedulingId;candidateName;candidateCpf;candidateRenach;schedulingDate;schedulingLocal;room;station',
      'IMP-1;Diego Prado;529.982.247-25;;25/11/2026 08:30;PE.RECIFE01-S1;Sala 1;01',
      'IMP-2;D;111.111.111-11;;31/02/2026 08:30;PE.RECIFE01-S1;Sala 1;02',
      'IMP-3;Elisa Reis;123.456.789-09;;26/11/2026;PE.RECIFE01-S1;Sala 1',
      'IMP-1;Fábio Melo;11144477735;;27/11/2026 10:00;PE.RECIFE01-S1;Sala 2;03',
      'PE-1;Gustavo Nery;11144477735;;27/11/2026 10:00;PE.RECIFE01-S1;Sala 2;03',
    ].join('\r\n');
    const response = await importCsv(csv);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('IMPORT_REJECTED');
    // Every problem of every line, in file order, including a schedulingId already stored.
    expect(body.details).toEqual([
      {
        path: 'linha 3, schedulingDate',
        message: 'Data inválida "31/02/2026 08:30" (use dd/mm/aaaa hh:mm).',
      },
      { path: 'linha 3, candidateName', message: 'Informe o nome do candidato.' },
      { path: 'linha 3, candidateCpf', message: 'CPF inválido.' },
      { path: 'linha 4', message: 'Esperava 8 colunas e encontrou 7.' },
      {
        path: 'linha 5, schedulingId',
        message: 'schedulingId IMP-1 repetido (também na linha 2).',
      },
      { path: 'linha 6, schedulingId', message: 'O agendamento PE-1 já existe.' },
    ]);
    const written = await t.database.db.execute(
      sql`select count(*)::int as n from exams where scheduling_id like 'IMP-%'`,
    );
    expect((written as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
  });

  it('a clean file imports every row as scheduled, in one go', async () => {
    const response = await importCsv(
      [
        '\uFEFFschedulingId,candidateName,candidateCpf,schedulingDate,schedulingLocal',
        'IMP-10,"Helena Prado, filha",529.982.247-25,25/11/2026 08:30,PE.RECIFE01-S1',
        'IMP-11,Igor Santos,11144477735,2026-11-25T09:30:00-03:00,PE.RECIFE01-S2',
      ].join('\n'),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ created: 2, updated: 0, unchanged: 0, rows: 2 });
    expect((await detail('IMP-10', admin.auth)).json().exam).toMatchObject({
      candidateName: 'Helena Prado, filha',
      status: 'scheduled',
      schedulingDate: '2026-11-25T11:30:00.000Z',
    });
  });

  it('only an ADMIN imports; an empty or headerless file is refused', async () => {
    expect((await importCsv('schedulingId;candidateName\n', auditor.auth)).statusCode).toBe(403);
    expect((await importCsv('')).json().code).toMatch(/IMPORT_|VALIDATION/);
    expect((await importCsv('a;b;c\n1;2;3')).json().details[0].message).toMatch(
      /^Cabeçalho sem as colunas/,
    );
  });

  it('parses quoted CSV fields and Brasília dates', () => {
    expect(parseCsv('a;"b;c";"d ""e"""\r\n1;2;3', ';')).toEqual([
      ['a', 'b;c', 'd "e"'],
      ['1', '2', '3'],
    ]);
    expect(parseImportDate('01/12/2026 07:05')).toBe('2026-12-01T07:05:00-03:00');
    expect(parseImportDate('29/02/2027')).toBeNull();
    expect(parseImportDate('amanhã')).toBeNull();
    expect(readExamCsv('').errors[0]?.message).toBe('O arquivo está vazio.');
  });
});
