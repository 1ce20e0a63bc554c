/**
 * The SQL of how the report names a post: the local-id rule of spec 7
 * (`localIdOf` of packages/shared), the post's own identifier behind an
 * exam's local (`postIdentifierOf`), and the scheduling local that names
 * each local id.
 */
import {
  CE_LOCAL_PREFIX,
  LOCAL_ID_TARGET_PREFIX,
  UNKNOWN_LOCAL_ID,
  type ReportScope,
} from '@exame/shared';
import { sql, type SQL } from 'drizzle-orm';
import { literal, type Bind, type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';

/** `localIdOf` of packages/shared, in SQL, over a text column. */
export function localIdSql(scope: ReportScope, column: SQL, bind: Bind = literal): SQL {
  if (scope.unit === 'CE') {
    return sql`(case when ${column} is null or ${column} = '' then ${UNKNOWN_LOCAL_ID}::text
      when starts_with(${column}, ${CE_LOCAL_PREFIX}::text) then ${column}
      else ${CE_LOCAL_PREFIX}::text || ${column} end)`;
  }
  const prefix = sql`${bind('prefix', scope.prefix)}::text`;
  return sql`coalesce(nullif(split_part(
      case when starts_with(${column}, ${prefix})
        then ${LOCAL_ID_TARGET_PREFIX}::text || substr(${column}, char_length(${prefix}) + 1)
        else ${column} end,
      '-', 1), ''), ${UNKNOWN_LOCAL_ID}::text)`;
}

/** `postIdentifierOf` of packages/shared, in SQL: the post's own identifier behind a local. */
export function postIdentifierSql(scope: ReportScope, column: SQL, bind: Bind = literal): SQL {
  if (scope.unit === 'CE') return sql`nullif(${column}, '')`;
  const prefix = sql`${bind('prefix', scope.prefix)}::text`;
  return sql`nullif(case when starts_with(${column}, ${prefix})
      then ${prefix} || split_part(substr(${column}, char_length(${prefix}) + 1), '-', 1)
      else split_part(${column}, '-', 1) end, '')`;
}

/**
 * Names of local ids: the first scheduling local (code-point order of the
 * identifier) of the unit mapping to each id, with that identifier.
 */
export function namesCte(scope: ReportScope, bind: Bind = literal): SQL {
  return sql`names as (
    select distinct on (local_id) local_id, identifier, description
    from (
      select ${localIdSql(scope, sql`l.identifier`, bind)} as local_id, l.identifier, l.description
      from scheduling_locals l
      where l.federative_unit = ${bind('unit', scope.unit)}
    ) mapped
    order by local_id, identifier collate "C"
  )`;
}

/** The last code point: `base + MAX` bounds every identifier that starts with `base`. */
const LAST_CODE_POINT = '\u{10FFFF}';

/** Identifiers in [low, high), code-point order. */
type IdentifierRange = { low: string; high: string };

const startingWith = (base: string): IdentifierRange => ({
  low: base,
  high: `${base}${LAST_CODE_POINT}`,
});
/** Only the empty identifier: nothing sorts between '' and U+0001. */
const EMPTY_ONLY: IdentifierRange = { low: '', high: '\u0001' };

/**
 * The identifiers that can map to `localId` (`localIdOf`), as ranges: every
 * identifier that maps to it lies in one of them; what else a range holds
 * (`DF.POSTO10` for `DF.POSTO1`) the exact rule drops in SQL.
 */
export function identifierRangesOf(scope: ReportScope, localId: string): IdentifierRange[] {
  if (scope.unit === 'CE') {
    if (localId === UNKNOWN_LOCAL_ID) return [EMPTY_ONLY];
    return localId.startsWith(CE_LOCAL_PREFIX)
      ? [startingWith(localId), startingWith(localId.slice(CE_LOCAL_PREFIX.length))]
      : [startingWith(localId)];
  }
  // An empty id part: the empty identifier, or one that starts with its dash.
  if (localId === UNKNOWN_LOCAL_ID) return [EMPTY_ONLY, startingWith('-')];
  const ranges = [startingWith(localId)];
  if (localId.startsWith(LOCAL_ID_TARGET_PREFIX)) {
    ranges.push(startingWith(`${scope.prefix}${localId.slice(LOCAL_ID_TARGET_PREFIX.length)}`));
  }
  return ranges;
}

/**
 * The scheduling locals that name some local ids (the rows of one page, or
 * one post's report), by the same rule as `namesCte` (the first identifier in
 * code-point order that maps to each id): only the posts whose identifiers can
 * map to them are read, through the unit's identifier index in code-point
 * order (migration 0035), whatever the number of posts of the unit.
 */
export async function namingLocals(
  db: Executor,
  scope: ReportScope,
  localIds: string[],
): Promise<Map<string, { identifier: string; description: string }>> {
  if (localIds.length === 0) return new Map();
  const ranges = JSON.stringify(localIds.flatMap((id) => identifierRangesOf(scope, id)));
  const rows = await selectRows<{ local_id: string; identifier: string; description: string }>(
    db,
    // `offset 0` keeps the ranges' posts a step of their own: pushed into the
    // scan, the rule's filter would have the planner map every post instead.
    sql`select distinct on (local_id) local_id, identifier, description from (
        select ${localIdSql(scope, sql`c.identifier`)} as local_id, c.identifier, c.description
        from (
          select l.identifier, l.description
          from jsonb_to_recordset(${ranges}::jsonb) as r(low text, high text)
          join scheduling_locals l on l.federative_unit = ${scope.unit}
            and l.identifier collate "C" >= r.low collate "C"
            and l.identifier collate "C" < r.high collate "C"
          offset 0
        ) c
      ) mapped
      where local_id in (${sql.join(
        localIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      order by local_id, identifier collate "C"`,
  );
  return new Map(
    rows.map((row) => [row.local_id, { identifier: row.identifier, description: row.description }]),
  );
}

/** The names of some local ids (the rows of one page). */
export async function localNames(
  db: Executor,
  scope: ReportScope,
  localIds: string[],
): Promise<Map<string, string>> {
  const naming = await namingLocals(db, scope, localIds);
  return new Map([...naming].map(([id, local]) => [id, local.description]));
}

/** The scheduling local that names one local id (a post's report without exams in the period). */
export async function findNamingLocal(
  db: Executor,
  scope: ReportScope,
  localId: string,
): Promise<{ identifier: string; description: string } | null> {
  return (await namingLocals(db, scope, [localId])).get(localId) ?? null;
}
