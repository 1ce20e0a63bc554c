import { countLocalReports, examContributions, localNamesOf } from './exam-report.reference';
import { describe, expect, it } from 'vitest';
import {
  isValidLocalId,
  localIdOf,
  localPrefixFor,
  postIdentifierOf,
  REPORT_COUNTERS,
  reportLocalPrefixesSchema,
  sumCounters,
  UNKNOWN_LOCAL_NAME,
} from './exam-report';
import {
  dayInZone,
  parsePeriodDate,
  resolvePeriod,
  zonedDayStart,
  zonedDayStartIso,
  addDays,
} from './period';
import {
  buildUnitFixtures,
  CONTRIBUTION_TABLE,
  expectedReport,
  FIXTURE_END_DAY,
  FIXTURE_START_DAY,
  METADATA_COMBINATIONS,
} from '../test/exam-report.fixtures';

describe('counting rules (spec 4), one exam of every status × result × metadata', () => {
  for (const [status, result, expected] of CONTRIBUTION_TABLE) {
    for (const metadata of METADATA_COMBINATIONS) {
      const name = `${status}/${result ?? 'sem resultado'} pa=${metadata.pendingAudit} ab=${metadata.absence} in=${metadata.interrupted}`;
      it(name, () => {
        const got = examContributions({ status, result, ...metadata });
        for (const counter of REPORT_COUNTERS) {
          const fromTable = expected[counter] ?? 0;
          const fromMetadata =
            status === 'cancelled'
              ? 0
              : counter === 'pendingAudit'
                ? metadata.pendingAudit
                : counter === 'absence'
                  ? metadata.absence
                  : counter === 'interrupted'
                    ? metadata.interrupted
                    : 0;
          expect(got[counter], counter).toBe(fromTable + fromMetadata);
        }
      });
    }
  }
});

describe('local id (spec 7)', () => {
  it.each([
    ['DEMO', 'DEMO.POSTO01-S2', 'DEMO.', 'DF.POSTO01'],
    ['DEMO', 'DEMO.POSTO01', 'DEMO.', 'DF.POSTO01'],
    ['DF', 'DETRANDF-POSTO01-S2', 'DETRANDF-', 'DF.POSTO01'],
    ['DF', 'DETRANDF-POSTO01', 'DETRANDF-', 'DF.POSTO01'],
    ['SP', 'SP.POSTO-A-B', 'SP.', 'DF.POSTO'],
    // Without the prefix the text is kept up to the first dash.
    ['SP', 'OUTRO.X-1', 'SP.', 'OUTRO.X'],
    // The prefix is replaced only at the start.
    ['SP', 'X.SP.Y', 'SP.', 'X.SP.Y'],
    // CE: 'CE.' plus the whole local, dash included.
    ['CE', 'POSTO01-S2', 'CE.', 'CE.POSTO01-S2'],
    // A CE local already written with its unit is not prefixed twice.
    ['CE', 'CE.POSTO01', 'CE.', 'CE.POSTO01'],
    ['CE', 'CE.POSTO01-S2', '', 'CE.POSTO01-S2'],
    ['CE', 'CEARA.POSTO', 'CE.', 'CE.CEARA.POSTO'],
    ['CE', null, 'CE.', 'sem-local'],
    ['DF', null, 'DF.', 'sem-local'],
    ['DF', '', 'DF.', 'sem-local'],
    ['DF', '-S1', 'DF.', 'sem-local'],
  ])('%s %s (prefixo %s) -> %s', (unit, local, prefix, id) => {
    expect(localIdOf(unit, local, prefix)).toBe(id);
  });

  it.each([
    ['DEMO', 'DEMO.POSTO06-S1', 'DEMO.', 'DEMO.POSTO06'],
    ['DEMO', 'DEMO.POSTO06', 'DEMO.', 'DEMO.POSTO06'],
    // A prefix with a dash is kept whole; only the room suffix after it goes.
    ['DF', 'DETRANDF-POSTO01-S2', 'DETRANDF-', 'DETRANDF-POSTO01'],
    ['SP', 'OUTRO.X-1', 'SP.', 'OUTRO.X'],
    ['CE', 'POSTO01-S2', 'CE.', 'POSTO01-S2'],
    ['DF', null, 'DF.', null],
    ['DF', '-S1', 'DF.', null],
  ])('the post’s own identifier: %s %s (prefixo %s) -> %s', (unit, local, prefix, identifier) => {
    expect(postIdentifierOf(unit, local, prefix)).toBe(identifier);
  });

  it('a unit without a configured prefix uses "<unit>."', () => {
    expect(localPrefixFor('DEMO')).toBe('DEMO.');
    expect(localPrefixFor('DF', { DF: 'DETRANDF-' })).toBe('DETRANDF-');
    expect(localPrefixFor('SP', { DF: 'DETRANDF-' })).toBe('SP.');
  });

  it('names come from the unit’s locals through the same rule; the first identifier wins', () => {
    const names = localNamesOf(
      [
        { federativeUnit: 'DEMO', identifier: 'DEMO.POSTO01', description: 'Centro' },
        { federativeUnit: 'DEMO', identifier: 'DEMO.POSTO01-ANEXO', description: 'Anexo' },
        { federativeUnit: 'SP', identifier: 'DEMO.POSTO02', description: 'De outra unidade' },
      ],
      'DEMO',
      'DEMO.',
    );
    expect(Object.fromEntries(names)).toEqual({ 'DF.POSTO01': 'Centro' });
  });

  it('validates the REPORT_LOCAL_PREFIXES object', () => {
    expect(reportLocalPrefixesSchema.safeParse({ DF: 'DETRANDF-' }).success).toBe(true);
    expect(reportLocalPrefixesSchema.safeParse({ df: 'x' }).success).toBe(false);
    expect(reportLocalPrefixesSchema.safeParse({ DF: '' }).success).toBe(false);
  });

  it('refuses control characters in a local id', () => {
    expect(isValidLocalId('DF.POSTO01')).toBe(true);
    expect(isValidLocalId('Posto São José')).toBe(true);
    expect(isValidLocalId('a\u0000b')).toBe(false);
    expect(isValidLocalId('')).toBe(false);
  });
});

describe('report period', () => {
  it('a bare day is a São Paulo day; the end day is included whole', () => {
    const period = resolvePeriod('2026-03-01', '2026-03-31');
    expect(period).toMatchObject({
      ok: true,
      startDay: '2026-03-01',
      endDay: '2026-03-31',
      days: 31,
    });
    if (!period.ok) return;
    expect(period.start.toISOString()).toBe('2026-03-01T03:00:00.000Z');
    expect(period.endExclusive.toISOString()).toBe('2026-04-01T03:00:00.000Z');
  });

  it('a date-time names the day in its own offset; the time is ignored', () => {
    const period = resolvePeriod('2026-03-01T15:20:00-03:00', '2026-03-01T00:00:00-03:00');
    expect(period.ok && period.start.toISOString()).toBe('2026-03-01T03:00:00.000Z');
    expect(period.ok && period.endExclusive.toISOString()).toBe('2026-03-02T03:00:00.000Z');
    const utc = resolvePeriod('2026-03-01T00:00:00Z', '2026-03-01T23:59:59.999Z');
    expect(utc.ok && utc.start.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(utc.ok && utc.endExclusive.toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });

  it.each([
    [undefined, '2026-03-01', 'PERIOD_DATE_REQUIRED'],
    ['2026-03-01', '', 'PERIOD_DATE_REQUIRED'],
    ['01/03/2026', '2026-03-02', 'PERIOD_INVALID_START_DATE'],
    ['2026-02-30', '2026-03-02', 'PERIOD_INVALID_START_DATE'],
    ['2026-03-01', '2026-13-01', 'PERIOD_INVALID_END_DATE'],
    ['2026-03-01T10:00:00', '2026-03-02', 'PERIOD_INVALID_START_DATE'],
    ['2026-03-01', '2026-03-02T25:00:00Z', 'PERIOD_INVALID_END_DATE'],
    ['2026-03-01', '2026-03-02T10:00:00+15:00', 'PERIOD_INVALID_END_DATE'],
    ['2026-03-02', '2026-03-01', 'PERIOD_INVALID_RANGE'],
    ['2024-01-01', '2025-01-01', 'PERIOD_RANGE_TOO_LONG'],
  ])('%s .. %s -> %s', (start, end, code) => {
    const period = resolvePeriod(start, end);
    expect(period).toMatchObject({ ok: false, code });
    if (!period.ok) expect(period.message).toMatch(/[a-zà-ú]/);
  });

  it('allows 366 days, the longest range', () => {
    expect(resolvePeriod('2025-01-01', '2026-01-01')).toMatchObject({ ok: true, days: 366 });
  });

  it('formats a picked day as ISO 8601 with the São Paulo offset, also in the old summer time', () => {
    expect(zonedDayStartIso('2026-05-01')).toBe('2026-05-01T00:00:00-03:00');
    // Brazil had summer time (UTC-2) until 2019.
    expect(zonedDayStartIso('2018-12-01')).toBe('2018-12-01T00:00:00-02:00');
    expect(zonedDayStart('2018-12-01').toISOString()).toBe('2018-12-01T02:00:00.000Z');
    expect(parsePeriodDate(zonedDayStartIso('2026-05-01'))).toEqual({
      day: '2026-05-01',
      offsetMinutes: -180,
    });
  });

  it('gives the São Paulo calendar day of an instant', () => {
    expect(dayInZone(new Date('2026-03-02T02:59:59Z'))).toBe('2026-03-01');
    expect(dayInZone(new Date('2026-03-02T03:00:00Z'))).toBe('2026-03-02');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
  });
});

describe('reference implementation over the fixtures', () => {
  const period = resolvePeriod(FIXTURE_START_DAY, FIXTURE_END_DAY);
  if (!period.ok) throw new Error('período das fixtures inválido');

  it.each([
    ['DF', 'DF.'],
    ['DF', 'DETRANDF-'],
    ['SP', 'SP.'],
    ['CE', ''],
  ])('%s with prefix "%s" equals the contribution table', (unit, prefix) => {
    const own = buildUnitFixtures(unit, prefix);
    const other = buildUnitFixtures(unit === 'SP' ? 'DF' : 'SP', unit === 'SP' ? 'DF.' : 'SP.');
    const reports = countLocalReports(
      [...own.exams, ...other.exams],
      [...own.locals, ...other.locals],
      { unit, prefix, start: period.start, endExclusive: period.endExclusive },
    );
    const expected = expectedReport(own);
    expect(Object.fromEntries(reports.map((local) => [local.id, local.report]))).toEqual(
      Object.fromEntries(expected),
    );
    const named = Object.fromEntries(reports.map((local) => [local.id, local.name]));
    const first = unit === 'CE' ? `CE.POSTO01` : 'DF.POSTO01';
    expect(named[first]).toBe(`Posto Centro ${unit}`);
    const unknown = unit === 'CE' ? 'CE.POSTO99' : 'DF.POSTO99';
    expect(named[unknown]).toBe(UNKNOWN_LOCAL_NAME);
    expect(named['sem-local']).toBe(UNKNOWN_LOCAL_NAME);
    // A local without exams in the period is not listed.
    expect(Object.values(named)).not.toContain(`Posto Sem Exames ${unit}`);
    // 25 combinations × 8 metadata, minus 40 cancelled, plus 2 in-range bounds and 2 odd locals.
    expect(sumCounters(reports).total).toBe(200 - 40 + 4);
  });
});

describe('package entry', () => {
  it('the JavaScript reference counter is not in the runtime entry', async () => {
    const entry = await import('./index');
    for (const name of ['countLocalReports', 'examContributions', 'localNamesOf']) {
      expect(name in entry, name).toBe(false);
    }
    expect('compareLocalReports' in entry).toBe(true);
  });
});
