/**
 * The exam report against a real database (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set): the counting table of spec 4 over one exam of
 * every status × result × metadata combination, the range bounds, unknown
 * locals, other units; SQL equal to the JavaScript reference; tenant
 * isolation; the exams behind each counter; occurrences; exports equal to
 * the screen; and the 400s of bad input.
 */
import { countLocalReports } from '@exame/shared/exam-report-reference';
import {
  ALL_LOCALS_NAME,
  localPrefixFor,
  REPORT_COUNTERS,
  REPORT_EXPORT_HEADER,
  resolvePeriod,
  sumCounters,
  type LocalReport,
  type LocalReportDetail,
  type ReportCounters,
  type ReportExamPage,
  type ReportOccurrencePage,
} from '@exame/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildUnitFixtures,
  expectedContribution,
  expectedReport,
  FIXTURE_END_DAY,
  FIXTURE_START_DAY,
  type ReportFixtures,
} from '../../../../../packages/shared/test/exam-report.fixtures';
import { exams, occurrences, schedulingLocals } from '../../db/schema/index';
import { formulaCells, readCsv } from '../../../test/csv';
import { buildTestApp, engineName, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';

const PREFIXES = { DF: 'DETRANDF-' };
const FIXTURES: Record<'DF' | 'SP' | 'CE', ReportFixtures> = {
  DF: buildUnitFixtures('DF', PREFIXES.DF),
  SP: buildUnitFixtures('SP', localPrefixFor('SP', PREFIXES)),
  // CE posts stored as the specification's CE rule writes them: `CE.X`.
  CE: buildUnitFixtures('CE', 'CE.'),
};
const ALL_EXAMS = Object.values(FIXTURES).flatMap((fixtures) => fixtures.exams);
const ALL_LOCALS = Object.values(FIXTURES).flatMap((fixtures) => fixtures.locals);
const PERIOD = { startDate: FIXTURE_START_DAY, endDate: FIXTURE_END_DAY };

async function insertFixtures(t: TestApp): Promise<void> {
  await t.database.db.insert(schedulingLocals).values(ALL_LOCALS);
  const rows = ALL_EXAMS.map((exam, index) => ({
    federativeUnit: exam.federativeUnit,
    schedulingId: exam.schedulingId,
    candidateName: `Candidato ${index}`,
    candidateCpf: String(10_000_000_000 + index * 7919).slice(0, 11),
    schedulingDate: new Date(exam.schedulingDate),
    status: exam.status,
    result: exam.result,
    schedulingLocal: exam.schedulingLocal,
    pendingAudit: exam.pendingAudit,
    absence: exam.absence,
    interrupted: exam.interrupted,
  }));
  for (let index = 0; index < rows.length; index += 200) {
    await t.database.db.insert(exams).values(rows.slice(index, index + 200));
  }
}

function byId(reports: LocalReport[]): Record<string, ReportCounters> {
  return Object.fromEntries(reports.map((local) => [local.id, local.report]));
}

describe(`exam report (${engineName})`, () => {
  let t: TestApp;
  const auth: Record<string, { authorization: string }> = {};

  beforeAll(async () => {
    t = await buildTestApp({ config: { reportLocalPrefixes: PREFIXES } });
    await insertFixtures(t);
    auth.DF = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' })).auth;
    auth.SP = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' })).auth;
    auth.CE = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'CE' })).auth;
    auth.auditor = (await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' })).auth;
  });
  afterAll(() => t.close());

  const get = (url: string, who: keyof typeof auth, query: Record<string, string> = PERIOD) =>
    t.app.inject({ method: 'GET', url, query, headers: auth[who] });

  /** A GET over the fixtures' period with more parameters. */
  const during = (url: string, who: keyof typeof auth, more: Record<string, string>) =>
    get(url, who, { ...PERIOD, ...more });
  /** The dashboard: every post of the period. */
  const posts = async (who: keyof typeof auth) =>
    (await get('/api/ExamReport', who)).json() as LocalReport[];
  /** One post's report, or `all` of them, as unit DF's ADMIN sees it. */
  const post = async (localId: string) =>
    (await get(`/api/ExamReport/${localId}`, 'DF')).json() as LocalReportDetail;
  /** One field of each post, by post. */
  const perPost = (reports: LocalReport[], field: 'name' | 'identifier') =>
    Object.fromEntries(reports.map((local) => [local.id, local[field]]));

  describe.each(['DF', 'SP', 'CE'] as const)('unit %s', (unit) => {
    it('counts every status × result × metadata as the table says, in SQL', async () => {
      const response = await get('/api/ExamReport', unit);
      expect(response.statusCode).toBe(200);
      const reports = response.json() as LocalReport[];
      expect(byId(reports)).toEqual(Object.fromEntries(expectedReport(FIXTURES[unit])));
    });

    it('equals the shared JavaScript reference over the same rows, order included', async () => {
      const reports = await posts(unit);
      const period = resolvePeriod(FIXTURE_START_DAY, FIXTURE_END_DAY);
      if (!period.ok) throw new Error(period.message);
      const reference = countLocalReports(ALL_EXAMS, ALL_LOCALS, {
        unit,
        prefix: localPrefixFor(unit, PREFIXES),
        start: period.start,
        endExclusive: period.endExclusive,
      });
      expect(reports).toEqual(reference);
    });
  });

  /** DF's posts on the dashboard: their name and identifier. */
  const DF_POSTS: Array<[id: string, name: string, identifier: string | null]> = [
    // A scheduling local names the post (and gives its identifier).
    ['DF.POSTO01', 'Posto Centro DF', 'DETRANDF-POSTO01'],
    ['DF.POSTO02', 'Posto Norte DF', 'DETRANDF-POSTO02'],
    // No scheduling local: identified by the local of its exams without the room suffix.
    ['DF.POSTO99', 'Desconhecido', 'DETRANDF-POSTO99'],
    ['OUTRO.POSTO', 'Desconhecido', 'OUTRO.POSTO'],
    ['sem-local', 'Desconhecido', null],
  ];

  it('names posts from the scheduling locals, unknown ones "Desconhecido", and skips posts without exams', async () => {
    expect(perPost(await posts('DF'), 'name')).toEqual(
      Object.fromEntries(DF_POSTS.map(([id, name]) => [id, name])),
    );
  });

  it('names each post by its own identifier too, never by the report id', async () => {
    expect(perPost(await posts('DF'), 'identifier')).toEqual(
      Object.fromEntries(DF_POSTS.map(([id, , identifier]) => [id, identifier])),
    );
    const one = await post('DF.POSTO01');
    expect(one.identifier).toBe('DETRANDF-POSTO01');
    const empty = await post('DF.POSTO03');
    expect(empty.identifier).toBe('DETRANDF-POSTO03');
    const all = await post('all');
    expect(all.identifier).toBeNull();
  });

  it('says how much of each counter came from the delivery system’s metadata', async () => {
    const reports = await posts('DF');
    for (const local of reports) {
      const counted = FIXTURES.DF.exams.filter((exam) => exam.expectedLocalId === local.id);
      const sum = (pick: (exam: (typeof counted)[number]) => number) =>
        counted.reduce((total, exam) => total + pick(exam), 0);
      expect(local.fromMetadata).toEqual({
        pendingAudit: sum((exam) => exam.pendingAudit),
        absence: sum((exam) => exam.absence),
        interrupted: sum((exam) => exam.interrupted),
      });
      // What is left of a counter without its metadata is what the exams' states count.
      const statuses = (status: string, result?: string) =>
        counted.filter((exam) => exam.status === status && (!result || exam.result === result))
          .length;
      expect(local.report.pendingAudit - local.fromMetadata.pendingAudit).toBe(
        statuses('done', 'in_analysis'),
      );
      expect(local.report.absence - local.fromMetadata.absence).toBe(statuses('absence'));
      expect(local.report.interrupted).toBe(local.fromMetadata.interrupted);
    }
    const all = await post('all');
    expect(all.fromMetadata.pendingAudit).toBe(
      reports.reduce((total, local) => total + local.fromMetadata.pendingAudit, 0),
    );
    expect(all.fromMetadata.pendingAudit).toBeGreaterThan(0);
  });

  it('CE: a post stored as CE.X and exams written with or without CE. are one post, named', async () => {
    const day = '2031-03-10';
    await t.database.db.insert(schedulingLocals).values([
      { federativeUnit: 'CE', identifier: 'CE.FORTALEZA-CENTRO', description: 'Posto Fortaleza' },
      { federativeUnit: 'CE', identifier: 'SOBRAL', description: 'Posto Sobral' },
    ]);
    const base = {
      federativeUnit: 'CE',
      candidateName: 'Candidato CE',
      candidateCpf: '52998224725',
      schedulingDate: new Date(`${day}T13:00:00Z`),
      status: 'scheduled' as const,
    };
    await t.database.db.insert(exams).values([
      { ...base, schedulingId: 'CE-MIX-1', schedulingLocal: 'CE.FORTALEZA-CENTRO' },
      { ...base, schedulingId: 'CE-MIX-2', schedulingLocal: 'FORTALEZA-CENTRO' },
      { ...base, schedulingId: 'CE-MIX-3', schedulingLocal: 'CE.SOBRAL' },
    ]);
    const reports = (
      await get('/api/ExamReport', 'CE', { startDate: day, endDate: day })
    ).json() as LocalReport[];
    expect(
      reports.map(({ id, identifier, name, report }) => ({
        id,
        identifier,
        name,
        total: report.total,
      })),
    ).toEqual([
      {
        id: 'CE.FORTALEZA-CENTRO',
        identifier: 'CE.FORTALEZA-CENTRO',
        name: 'Posto Fortaleza',
        total: 2,
      },
      { id: 'CE.SOBRAL', identifier: 'SOBRAL', name: 'Posto Sobral', total: 1 },
    ]);
  });

  it('includes both bound days whole and nothing outside them', async () => {
    const inRange = FIXTURES.DF.exams.filter((exam) => exam.expectedLocalId !== null).length;
    const reports = await posts('DF');
    expect(sumCounters(reports).total).toBe(inRange);
    // The same days as ISO 8601 with the São Paulo offset, as the web app sends them.
    const iso = await get('/api/ExamReport', 'DF', {
      startDate: '2026-03-01T00:00:00-03:00',
      endDate: '2026-03-31T00:00:00-03:00',
    });
    expect(iso.json()).toEqual(reports);
    // One day less on each side drops exactly the exams of those days.
    const narrower = (
      await get('/api/ExamReport', 'DF', { startDate: '2026-03-02', endDate: '2026-03-30' })
    ).json() as LocalReport[];
    const period = resolvePeriod('2026-03-02', '2026-03-30');
    if (!period.ok) throw new Error(period.message);
    const expectedNarrow = FIXTURES.DF.exams.filter((exam) => {
      const at = new Date(exam.schedulingDate).getTime();
      return (
        exam.expectedLocalId !== null &&
        at >= period.start.getTime() &&
        at < period.endExclusive.getTime()
      );
    }).length;
    expect(sumCounters(narrower).total).toBe(expectedNarrow);
    expect(expectedNarrow).toBeLessThan(inRange);
  });

  describe('tenant isolation', () => {
    it('a DF user never sees SP counts; a unit in the query string is ignored', async () => {
      const own = await posts('DF');
      const asked = await during('/api/ExamReport', 'DF', {
        federativeUnit: 'SP',
        unit: 'SP',
        uf: 'SP',
      });
      expect(asked.statusCode).toBe(200);
      expect(asked.json()).toEqual(own);
      expect(own.some((local) => local.name.endsWith(' SP'))).toBe(false);
      const sp = await posts('SP');
      expect(byId(sp)).toEqual(Object.fromEntries(expectedReport(FIXTURES.SP)));
    });

    it('holds for the post report, its exams, the occurrences and the export', async () => {
      const all = (
        await during('/api/ExamReport/all', 'DF', { federativeUnit: 'SP' })
      ).json() as LocalReportDetail;
      expect(all.report).toEqual(
        sumCounters([...expectedReport(FIXTURES.DF).values()].map((report) => ({ report }))),
      );
      const examsPage = (
        await during('/api/ExamReport/all/exams', 'DF', {
          counter: 'total',
          pageSize: '100',
          federativeUnit: 'SP',
        })
      ).json() as ReportExamPage;
      expect(examsPage.total).toBe(all.report.total);
      expect(examsPage.items.every((exam) => !exam.schedulingId.startsWith('SP-'))).toBe(true);
      const csv = await during('/api/ExamReport/export', 'DF', {
        format: 'csv',
        federativeUnit: 'SP',
      });
      expect(csv.body).not.toMatch(/ SP/);
    });
  });

  describe('one post and every post', () => {
    it('gives a post its counters and "all" the sum with every post', async () => {
      const expected = expectedReport(FIXTURES.DF);
      const one = await post('DF.POSTO01');
      expect(one).toMatchObject({
        id: 'DF.POSTO01',
        name: 'Posto Centro DF',
        startDay: FIXTURE_START_DAY,
        endDay: FIXTURE_END_DAY,
        report: expected.get('DF.POSTO01'),
      });
      expect(one.locals).toHaveLength(1);
      const all = await post('all');
      expect(all.name).toBe(ALL_LOCALS_NAME);
      expect(byId(all.locals)).toEqual(Object.fromEntries(expected));
      expect(all.report).toEqual(sumCounters(all.locals));
    });

    it('a post without exams in the period reports zeros under its own name', async () => {
      const empty = await post('DF.POSTO03');
      expect(empty.name).toBe('Posto Sem Exames DF');
      expect(Object.values(empty.report).every((value) => value === 0)).toBe(true);
      const unknown = await post('DF.NADA');
      expect(unknown.name).toBe('Desconhecido');
    });
  });

  describe('exams behind a counter', () => {
    it.each(REPORT_COUNTERS)('%s: the listed exams add up to the counter', async (counter) => {
      const report = await post('DF.POSTO01');
      const expectedExams = FIXTURES.DF.exams.filter(
        (exam) =>
          exam.expectedLocalId === 'DF.POSTO01' && expectedContribution(exam)[counter] !== 0,
      );
      const seen: ReportExamPage['items'] = [];
      for (let page = 1; page < 20; page += 1) {
        const response = await during('/api/ExamReport/DF.POSTO01/exams', 'DF', {
          counter,
          page: String(page),
          pageSize: '7',
        });
        expect(response.statusCode).toBe(200);
        const body = response.json() as ReportExamPage;
        expect(body.counterValue).toBe(report.report[counter]);
        expect(body.counterValue).toBe(expectedReport(FIXTURES.DF).get('DF.POSTO01')?.[counter]);
        expect(body.total).toBe(expectedExams.length);
        seen.push(...body.items);
        if (body.items.length < 7) break;
      }
      expect(seen.map((exam) => exam.schedulingId).sort()).toEqual(
        expectedExams.map((exam) => exam.schedulingId).sort(),
      );
      expect(seen.reduce((sum, exam) => sum + exam.contribution, 0)).toBe(report.report[counter]);
      for (const exam of seen) {
        const fixture = expectedExams.find((entry) => entry.schedulingId === exam.schedulingId);
        expect(fixture && expectedContribution(fixture)[counter]).toBe(exam.contribution);
      }
      expect(seen.every((exam) => /^\*\*\*\.\d{3}\.\d{3}-\*\*$/.test(exam.candidateCpf))).toBe(
        true,
      );
      const dates = seen.map((exam) => exam.schedulingDate);
      expect(dates).toEqual([...dates].sort());
    });
  });

  describe('occurrences of the period', () => {
    beforeAll(async () => {
      const rows = await t.database.db.select().from(exams);
      const pick = (schedulingId: string) => {
        const row = rows.find((exam) => exam.schedulingId === schedulingId);
        if (!row) throw new Error(schedulingId);
        return row;
      };
      const dfStarted = FIXTURES.DF.exams.find(
        (exam) => exam.status === 'started' && exam.expectedLocalId === 'DF.POSTO01',
      );
      const dfDone = FIXTURES.DF.exams.find(
        (exam) => exam.status === 'done' && exam.expectedLocalId === 'DF.POSTO02',
      );
      const dfCancelled = FIXTURES.DF.exams.find((exam) => exam.status === 'cancelled');
      const dfOutside = FIXTURES.DF.exams.find(
        (exam) => exam.expectedLocalId === null && exam.status !== 'cancelled',
      );
      const spExam = FIXTURES.SP.exams.find((exam) => exam.status === 'started');
      const at = (iso: string) => new Date(iso);
      const entries: Array<[string | undefined, string, Date]> = [
        [dfStarted?.schedulingId, 'Ruído no ambiente detectado.', at('2026-03-05T12:00:00Z')],
        [dfDone?.schedulingId, 'Outra pessoa apareceu na imagem.', at('2026-03-06T12:00:00Z')],
        [dfCancelled?.schedulingId, 'De um exame cancelado.', at('2026-03-07T12:00:00Z')],
        [dfOutside?.schedulingId, 'De fora do período.', at('2026-02-27T12:00:00Z')],
        [spExam?.schedulingId, 'De outra unidade.', at('2026-03-08T12:00:00Z')],
      ];
      await t.database.db.insert(occurrences).values(
        entries.map(([schedulingId, description, occurredAt], index) => ({
          examId: pick(schedulingId ?? '').id,
          externalId: `fx-${index}`,
          type: 'ruido',
          description,
          occurredAt,
        })),
      );
    });

    it('lists only the unit’s counted exams of the period, newest first, by post when asked', async () => {
      const response = await during('/api/ExamReport/occurrences', 'auditor', {
        federativeUnit: 'SP',
      });
      expect(response.statusCode).toBe(200);
      const page = response.json() as ReportOccurrencePage;
      expect(page.items.map((item) => item.description)).toEqual([
        'Outra pessoa apareceu na imagem.',
        'Ruído no ambiente detectado.',
      ]);
      expect(page.items[0]).toMatchObject({ localId: 'DF.POSTO02', localName: 'Posto Norte DF' });
      const onePost = (
        await during('/api/ExamReport/occurrences', 'DF', { localId: 'DF.POSTO01' })
      ).json() as ReportOccurrencePage;
      expect(onePost.total).toBe(1);
      expect(onePost.items[0]?.description).toBe('Ruído no ambiente detectado.');
      const paged = (
        await during('/api/ExamReport/occurrences', 'DF', { pageSize: '1', page: '2' })
      ).json() as ReportOccurrencePage;
      expect(paged).toMatchObject({ total: 2, page: 2, pageSize: 1 });
      expect(paged.items.map((item) => item.description)).toEqual(['Ruído no ambiente detectado.']);
    });
  });

  describe('exports equal the screen', () => {
    function parseCsv(body: Buffer): string[][] {
      const text = body.toString('utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      return readCsv(text, ';');
    }

    async function parseXlsx(body: Buffer): Promise<Array<Array<string | number>>> {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(body as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Relatório');
      if (!sheet) throw new Error('planilha ausente');
      const rows: Array<Array<string | number>> = [];
      sheet.eachRow((row) => {
        const values = (row.values as Array<string | number | undefined>).slice(1);
        rows.push(values.map((value) => value ?? ''));
      });
      return rows;
    }

    function expectedTable(detail: LocalReportDetail, withTotal: boolean) {
      // A post by its own identifier, as on screen: never the report id.
      const rows = detail.locals.map((local) => [
        local.identifier ?? '',
        local.name,
        ...REPORT_COUNTERS.map((counter) => local.report[counter]),
      ]);
      if (withTotal) {
        rows.push(['Total', detail.name, ...REPORT_COUNTERS.map((c) => detail.report[c])]);
      }
      return rows;
    }

    const exported = (format: string, localId: string) =>
      during('/api/ExamReport/export', 'DF', { format, localId });
    /** The CSV of a new DF post `DETRANDF-<code>` named `description` (report id `DF.<code>`). */
    const csvOfNewPost = async (code: string, description: string) => {
      await t.database.db
        .insert(schedulingLocals)
        .values({ federativeUnit: 'DF', identifier: `DETRANDF-${code}`, description });
      return exported('csv', `DF.${code}`);
    };

    it.each(['all', 'DF.POSTO01'])('localId=%s in CSV and XLSX', async (localId) => {
      const screen = await post(localId);
      const expected = expectedTable(screen, localId === 'all');
      expect(expected.length).toBeGreaterThan(0);

      const csv = await exported('csv', localId);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toContain(
        `relatorio-postos-${localId === 'all' ? 'todos' : 'DETRANDF-POSTO01'}-2026-03-01-a-2026-03-31.csv`,
      );
      const [csvHeader, ...csvRows] = parseCsv(csv.rawPayload);
      expect(csvHeader).toEqual(REPORT_EXPORT_HEADER);
      expect(csvRows.map((row) => [row[0], row[1], ...row.slice(2).map(Number)])).toEqual(expected);

      const xlsx = await exported('xlsx', localId);
      expect(xlsx.statusCode).toBe(200);
      expect(xlsx.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      const [xlsxHeader, ...xlsxRows] = await parseXlsx(xlsx.rawPayload);
      expect(xlsxHeader).toEqual(REPORT_EXPORT_HEADER);
      expect(xlsxRows).toEqual(expected);
    });

    it('keeps a post name that looks like a formula as text in the CSV', async () => {
      const csv = await csvOfNewPost('FORMULA', '=HYPERLINK("http://x";"Posto; 99")');
      const line = csv.rawPayload.toString('utf8').split('\r\n')[1];
      expect(line).toBe(
        `"DETRANDF-FORMULA";"'=HYPERLINK(""http://x"";""Posto; 99"")"${';"0"'.repeat(10)}`,
      );
    });

    it('quotes every cell and keeps formulas out whatever separator the file is read with', async () => {
      // Read with `,`, the old file split this name in two and its second half was a formula.
      const csv = await csvOfNewPost('VIRGULA', "x,=cmd|' /C calc'!A0");
      expect(csv.statusCode, csv.body).toBe(200);
      const text = csv.rawPayload.toString('utf8');
      expect(formulaCells(text)).toEqual([]);
      expect(text.split('\r\n')[1]).toBe(
        `"DETRANDF-VIRGULA";"x,'=cmd|' /C calc'!A0"${';"0"'.repeat(10)}`,
      );
      // Read back with `;` and quotes, the name is the one typed (with its neutralising quote).
      expect(readCsv(text, ';')[1]?.[1]).toBe("x,'=cmd|' /C calc'!A0");
    });
  });

  describe('bad input', () => {
    const refused = async (url: string, query: Record<string, string>, code: string) => {
      const response = await get(url, 'DF', query);
      expect(response.statusCode).toBe(400);
      const body = response.json() as { Error: string; code: string };
      expect(body.code).toBe(code);
      expect(body.Error).toMatch(/[A-Za-zÀ-ú]{3}/);
    };

    // The period of the dashboard.
    it.each([
      [{}, 'PERIOD_DATE_REQUIRED'],
      [{ startDate: '2026-03-01' }, 'PERIOD_DATE_REQUIRED'],
      [{ startDate: '31/03/2026', endDate: '2026-03-31' }, 'PERIOD_INVALID_START_DATE'],
      [{ startDate: '2026-03-01', endDate: '2026-02-30' }, 'PERIOD_INVALID_END_DATE'],
      [{ startDate: '2026-03-01T10:00', endDate: '2026-03-31' }, 'PERIOD_INVALID_START_DATE'],
      [{ startDate: '2026-03-31', endDate: '2026-03-01' }, 'PERIOD_INVALID_RANGE'],
      [{ startDate: '2025-01-01', endDate: '2026-01-02' }, 'PERIOD_RANGE_TOO_LONG'],
    ] as const)('/api/ExamReport %j -> 400 %s', (query, code) =>
      refused('/api/ExamReport', query, code),
    );

    // The other routes' own parameters.
    it.each([
      ['/api/ExamReport/all/exams', { ...PERIOD, counter: 'aprovados' }, 'REPORT_INVALID_COUNTER'],
      ['/api/ExamReport/export', { ...PERIOD, format: 'pdf' }, 'REPORT_INVALID_FORMAT'],
      ['/api/ExamReport/export', { ...PERIOD }, 'REPORT_INVALID_FORMAT'],
      ['/api/ExamReport/occurrences', { ...PERIOD, localId: 'a\u0001b' }, 'REPORT_INVALID_LOCAL'],
      // A NUL is refused for every route before the route's own checks.
      ['/api/ExamReport/a%00b', PERIOD, 'INVALID_CHARACTER'],
      ['/api/ExamReport/all/exams', { ...PERIOD, pageSize: '1000' }, 'VALIDATION_ERROR'],
    ] as const)('%s %j -> 400 %s', (url, query, code) =>
      refused(url, query as Record<string, string>, code),
    );

    it('only ADMIN opens the post report and the export; AUDITOR sees the dashboard and the exams behind its counters', async () => {
      expect((await get('/api/ExamReport', 'auditor')).statusCode).toBe(200);
      expect((await get('/api/ExamReport/occurrences', 'auditor')).statusCode).toBe(200);
      const counterExams = await during('/api/ExamReport/DF.POSTO01/exams', 'auditor', {
        counter: 'approved',
        page: '1',
        pageSize: '5',
      });
      expect(counterExams.statusCode).toBe(200);
      const page = counterExams.json() as ReportExamPage;
      expect(page.counterValue).toBe(expectedReport(FIXTURES.DF).get('DF.POSTO01')?.approved);
      expect(page.items.length).toBeLessThanOrEqual(5);
      expect(page.items.length).toBeGreaterThan(0);
      for (const url of ['/api/ExamReport/all', '/api/ExamReport/export']) {
        const response = await during(url, 'auditor', { format: 'csv' });
        expect(response.statusCode, url).toBe(403);
      }
    });
  });
});
