/**
 * The names of a page's posts (`localNames`): the same names as the rule of
 * the whole report (the shared reference, `localNamesOf`) for identifiers
 * chosen to sit at the edges of the rule, on both engines; and, with a unit
 * of thousands of posts, read through the identifier index in code-point
 * order rather than by mapping every post.
 */
import { localIdOf, UNKNOWN_LOCAL_ID, type ReportScope } from '@exame/shared';
import { localNamesOf } from '@exame/shared/exam-report-reference';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureReferenceData } from '../../db/seed/reference-data';
import {
  createPlanDatabase,
  indexesRead,
  sequentialScans,
  type PlanDatabase,
} from '../../../test/plans';
import { findNamingLocal, identifierRangesOf, localNames } from './report-locals.repository';

const scopeOf = (unit: string, prefix: string): ReportScope => ({
  unit,
  prefix,
  start: new Date('2026-11-01T03:00:00Z'),
  endExclusive: new Date('2026-12-01T03:00:00Z'),
});

const descriptionOf = (unit: string, index: number, identifier: string) =>
  `Posto ${unit} ${index} (${identifier})`;

// Each unit's identifiers: prefix and no prefix, room suffixes, a dash first,
// ids that are prefixes of others, the target prefix written by hand, accents
// and punctuation that sort apart in a language's collation.
const UNITS: Array<[ReportScope, string[]]> = [
  [
    scopeOf('DF', 'DETRANDF-'),
    [
      'DETRANDF-101',
      'DETRANDF-101-S2',
      'DETRANDF-1010',
      'DETRANDF-101A',
      'DF.101',
      'DF.101-S9',
      'DETRANDF-',
      'DETRANDF--X',
      '-ÓRFÃO',
      'POSTO-Á',
      'POSTO',
      'POSTO!',
      'posto',
      'Ágata-1',
    ],
  ],
  [
    scopeOf('SP', 'SP.'),
    ['SP.POSTO01', 'SP.POSTO01-S2', 'SP.POSTO010', 'SP.POSTO0', 'DF.POSTO01', 'POSTO01', '-'],
  ],
  [scopeOf('CE', 'CE.'), ['CE.FORTALEZA', 'FORTALEZA', 'CE.CE.FORTALEZA', 'CE.', 'FORTALEZA-1']],
];

describe('the names of a page’s posts', () => {
  let database: PlanDatabase;

  beforeAll(async () => {
    database = await createPlanDatabase();
    await ensureReferenceData(database.db);
    for (const [scope, identifiers] of UNITS) {
      for (const [index, identifier] of identifiers.entries()) {
        await database.db.execute(sql`insert into scheduling_locals
          (federative_unit, identifier, description)
          values (${scope.unit}, ${identifier}, ${descriptionOf(scope.unit, index, identifier)})`);
      }
    }
    // A unit of thousands of posts, each with a room suffix.
    await database.db
      .execute(sql`insert into scheduling_locals (federative_unit, identifier, description)
      select 'MG', 'MG.POSTO' || lpad(n::text, 5, '0') || case when n % 2 = 0 then '-S1' else '' end,
             'Posto MG ' || n
      from generate_series(1, 5000) as n`);
    await database.db.execute(sql`analyze scheduling_locals`);
  }, 120_000);
  afterAll(() => database.drop());

  it.each(UNITS)('as the report names them ($unit)', async (scope, identifiers) => {
    const locals = identifiers.map((identifier, index) => ({
      federativeUnit: scope.unit,
      identifier,
      description: descriptionOf(scope.unit, index, identifier),
    }));
    const expected = localNamesOf(locals, scope.unit, scope.prefix);
    const ids = [
      ...new Set([
        ...identifiers.map((identifier) => localIdOf(scope.unit, identifier, scope.prefix)),
        UNKNOWN_LOCAL_ID,
        'DF.999',
        'CE.NENHUM',
        'NENHUM',
      ]),
    ];
    const found = await localNames(database.db, scope, ids);
    expect(Object.fromEntries(found)).toEqual(
      Object.fromEntries(ids.flatMap((id) => (expected.has(id) ? [[id, expected.get(id)]] : []))),
    );
    // One post's report names it the same way, with the identifier that names it.
    for (const id of ids) {
      const first = [...identifiers]
        .sort()
        .find((identifier) => localIdOf(scope.unit, identifier, scope.prefix) === id);
      expect(await findNamingLocal(database.db, scope, id), id).toEqual(
        first === undefined ? null : { identifier: first, description: expected.get(id) },
      );
    }
    // Every identifier lies in a range of its own id.
    for (const identifier of identifiers) {
      const ranges = identifierRangesOf(scope, localIdOf(scope.unit, identifier, scope.prefix));
      expect(
        ranges.some(({ low, high }) => identifier >= low && identifier < high),
        identifier,
      ).toBe(true);
    }
  });

  it('a unit of 5,000 posts: only the ranges of the page’s ids are read, by the code-point index', async () => {
    const scope = scopeOf('MG', 'MG.');
    const ids = ['DF.POSTO00002', 'DF.POSTO04999', 'DF.POSTO09999', UNKNOWN_LOCAL_ID];
    const statements = await database.explain((db) => localNames(db, scope, ids));
    expect(sequentialScans(statements, ['scheduling_locals'])).toEqual([]);
    expect(indexesRead(statements)).toContain('scheduling_locals_unit_identifier_c_idx');
    const found = await localNames(database.db, scope, ids);
    expect(Object.fromEntries(found)).toEqual({
      'DF.POSTO00002': 'Posto MG 2',
      'DF.POSTO04999': 'Posto MG 4999',
    });
  });
});
