/**
 * The activity log as evidence (spec 3, 7). Server events are written by
 * their actions, in the same transaction (activity.repository.ts); the web
 * client's events (page_view, error, stream_log) come in batches, with the
 * actor and unit of the session, never of the body, and a client id per event
 * so a batch sent again after a failure stores nothing twice.
 *
 * Tenancy: the search, export and chain check read the ADMIN's own unit only;
 * the unit is a condition of every query, never a parameter.
 */
import {
  ACTIVITY_ERRORS,
  ACTIVITY_EXPORT_MAX_ROWS,
  ACTIVITY_TYPE_LABELS,
  cappedTotal,
  dayInZone,
  isValidCpf,
  pageReply,
  PERIOD_ERRORS,
  resolveOpenPeriod,
  stripCpf,
  TOTAL_COUNT_CAP,
  type ActivityBatch,
  type ActivityBatchResult,
  type ActivityFilter,
  type ActivityItem,
  type ActivityPage,
  type ActivityQuery,
  type ActivityType,
  type ActivityVerify,
} from '@exame/shared';
import type { Database } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { Pseudonymizer } from '../../lib/pseudonym';
import type { RateLimiter } from '../../db/rate-limit';
import { csvField } from './activity-csv';
import { verifyUnitChains } from './activity-chain';
import {
  countActivity,
  findActivityPage,
  findActivitySlice,
  appendWebEvents,
  type ActivityRow,
  type ActivitySearch,
} from './activity.repository';

export type ActivityDeps = {
  db: Database;
  pseudonym: Pseudonymizer;
  limiter: Pick<RateLimiter, 'hitAll'>;
};

/** `target` of an event about a person known by CPF: the keyed pseudonym, never the CPF. */
export function cpfTarget(pseudonym: Pseudonymizer, cpf: string): string {
  return `cpf:${pseudonym(stripCpf(cpf))}`;
}

export async function ingestWebEvents(
  deps: ActivityDeps,
  actor: SessionUser,
  batch: ActivityBatch,
): Promise<ActivityBatchResult> {
  // Every event counts, stored or not (a resent batch cannot be used to go round the bound),
  // and so do the events of a batch refused by the batches' own limit: one statement counts both.
  await deps.limiter.hitAll([
    { name: 'activityPerUser', subject: actor.id },
    { name: 'activityEventsPerUser', subject: actor.id, weight: batch.events.length },
  ]);
  // The batch's own repeats go once; the log's, not at all (appendWebEvents).
  const unique = new Map<string, ActivityBatch['events'][number]>();
  for (const event of batch.events) {
    const clientId = event.clientId.toLowerCase();
    if (!unique.has(clientId)) unique.set(clientId, { ...event, clientId });
  }
  const stored = await appendWebEvents(deps.db, actor, [...unique.values()]);
  return { accepted: stored.length, duplicates: batch.events.length - stored.length };
}

function searchOf(deps: ActivityDeps, actor: SessionUser, filter: ActivityFilter): ActivitySearch {
  const period = resolveOpenPeriod(filter.from, filter.to);
  if (!period.ok) throw AppError.from(PERIOD_ERRORS, period.code);
  const text = filter.target?.trim() || undefined;
  const digits = text ? stripCpf(text) : '';
  const cpf = text && /^[\d.\-\s]+$/.test(text) && isValidCpf(digits) ? digits : undefined;
  return {
    unit: actor.federativeUnit,
    types: filter.type?.length ? filter.type : undefined,
    actorId: filter.actorId,
    actorText: filter.actor?.trim() || undefined,
    targetText: text,
    cpf: cpf ? { digits: cpf, target: cpfTarget(deps.pseudonym, cpf) } : undefined,
    start: period.start,
    endExclusive: period.endExclusive,
  };
}

function toItem(row: ActivityRow): ActivityItem {
  return {
    id: row.id,
    seq: row.seq,
    type: row.type,
    actorId: row.actorId,
    actorName: row.actorName,
    actorEmail: row.actorEmail,
    federativeUnit: row.federativeUnit,
    target: row.target,
    details: row.payload,
    deviceId: row.deviceId,
    appVersion: row.appVersion,
    occurredAt: row.occurredAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    hash: row.hash,
  };
}

export async function searchActivity(
  deps: ActivityDeps,
  actor: SessionUser,
  query: ActivityQuery,
): Promise<ActivityPage> {
  const search = searchOf(deps, actor, query);
  // The log grows for months: its total is counted up to the cap, then says "more than".
  const [rows, counted] = await Promise.all([
    findActivityPage(deps.db, search, query.pageSize, (query.page - 1) * query.pageSize),
    countActivity(deps.db, search, TOTAL_COUNT_CAP + 1),
  ]);
  return pageReply(query, { items: rows.map(toItem), ...cappedTotal(counted) });
}

const EXPORT_HEADER = [
  'Nº',
  'Data e hora (servidor)',
  'Data e hora (cliente)',
  'Tipo',
  'Descrição',
  'Usuário',
  'E-mail',
  'ID do usuário',
  'UF',
  'Alvo',
  'Detalhes',
  'Dispositivo',
  'Versão',
  'Hash',
];

const SLICE = 2000;

export type ActivityExport = { filename: string; lines: AsyncIterable<string> };

/**
 * The search's events as CSV (`;`, CRLF, UTF-8 with BOM, formulas
 * neutralised), newest first. Capped: above ACTIVITY_EXPORT_MAX_ROWS the
 * export is refused (counted first), below it the rows are read in slices
 * and streamed, so memory does not grow with the file.
 */
export async function exportActivity(
  deps: ActivityDeps,
  actor: SessionUser,
  filter: ActivityFilter,
  now: Date = new Date(),
): Promise<ActivityExport> {
  const search = searchOf(deps, actor, filter);
  const total = await countActivity(deps.db, search, ACTIVITY_EXPORT_MAX_ROWS + 1);
  if (total > ACTIVITY_EXPORT_MAX_ROWS) {
    throw AppError.from(ACTIVITY_ERRORS, 'ACTIVITY_EXPORT_TOO_LARGE');
  }
  // Slices after the last event sent (keyset): events appended while the file streams do not shift them.
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${EXPORT_HEADER.map(csvField).join(';')}\r\n`;
    let afterId: string | undefined;
    for (;;) {
      const rows = await findActivitySlice(deps.db, search, afterId, SLICE);
      if (rows.length === 0) return;
      let chunk = '';
      for (const row of rows) {
        chunk += `${[
          String(row.seq),
          row.createdAt.toISOString(),
          row.occurredAt.toISOString(),
          row.type,
          ACTIVITY_TYPE_LABELS[row.type as ActivityType] ?? row.type,
          row.actorName ?? '',
          row.actorEmail ?? '',
          row.actorId ?? '',
          row.federativeUnit ?? '',
          row.target ?? '',
          JSON.stringify(row.payload),
          row.deviceId ?? '',
          row.appVersion ?? '',
          row.hash,
        ]
          .map(csvField)
          .join(';')}\r\n`;
      }
      yield chunk;
      afterId = rows[rows.length - 1]!.id;
      if (rows.length < SLICE) return;
    }
  }
  const day = dayInZone(now);
  return { filename: `atividades-${actor.federativeUnit}-${day}.csv`, lines: lines() };
}

export async function verifyUnitChain(
  deps: ActivityDeps,
  actor: SessionUser,
): Promise<ActivityVerify> {
  return verifyUnitChains(deps.db, actor.federativeUnit);
}

// The door of this module for the others (modules import each other only through services).
export { insertActivity, changeWithActivity, type ActivityType } from './activity.repository';
