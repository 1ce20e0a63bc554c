/**
 * A per-instance cache of the answers of a few hot reads (the exam list, the
 * report, the user list, the examiner's open check-in), so that the same read
 * repeated while nothing changed costs no database round trip, no mapping of
 * rows and no serialisation.
 *
 * Correctness rests on one number, the process's **data generation**, and
 * not on time:
 * - It goes up after every statement this process sends that may change
 *   data, once the statement has finished: any statement but a plain SELECT,
 *   so also each COMMIT and ROLLBACK (the database client calls
 *   `dataChanged`, see db/client.ts).
 * - It goes up when another instance (or anyone with a connection) changes a
 *   table: every table that a cached read can depend on has a statement
 *   trigger that sends `NOTIFY read_cache` (migration 0018), delivered to the
 *   instances after the change commits.
 * - While the listening connection is down (PostgreSQL), the cache neither
 *   serves nor stores: a change made elsewhere meanwhile would go unseen.
 *
 * An answer is stored only if the generation did not move between the start
 * of the request (after authentication, before the handler reads) and the
 * answer: a read that overlapped a change, or a handler that wrote anything
 * itself (e.g. the audit event of a read of whole CPFs), is never stored. An
 * entry is served only while the generation is the one it was stored under.
 * So a request that starts after a change of this instance committed never
 * gets an answer from before it; one that starts after a change of another
 * instance committed can get the older answer only until the notification
 * arrives (milliseconds), as with a read replica.
 *
 * Entries are keyed by the user (id, role, unit) and the whole address, so
 * nothing crosses users or units; authentication and the access policy run
 * on every request before the cache is looked at. `ttlMs` also bounds the
 * life of an entry: for what depends on the clock (the open check-in carries
 * photo addresses signed for a few minutes; config/env.ts keeps the TTL under
 * a tenth of their life), and for a listening connection that died without
 * the socket noticing (TCP keepalive probes it after 10 s idle), when another
 * instance's change could be missed.
 */

let generation = 0;

/** Something may have changed the data: every cached answer is stale from now on. */
export function dataChanged(): void {
  generation += 1;
}

export function dataGeneration(): number {
  return generation;
}

/** `pending`, with `dataChanged` once it settles (a statement or transaction that may have written). */
export function changesWhenSettled<T>(pending: Promise<T>): Promise<T> {
  return pending.then(
    (value) => {
      dataChanged();
      return value;
    },
    (error: unknown) => {
      dataChanged();
      throw error;
    },
  );
}

const READ_ONLY = /^\s*(select|with)\b/i;
const WRITING_WORDS =
  /\b(insert|update|delete|merge|truncate|copy|nextval|setval|pg_notify|lock)\b/i;
const classified = new Map<string, boolean>();

/**
 * Whether a statement may change data: anything but a plain SELECT (or WITH
 * ... SELECT), so also BEGIN, COMMIT, ROLLBACK and SET; a SELECT that names a
 * writing word anywhere (a CTE that inserts, FOR UPDATE, nextval) counts too,
 * which costs a cached answer at most.
 */
export function mayChangeData(text: string): boolean {
  let writes = classified.get(text);
  if (writes === undefined) {
    writes = !READ_ONLY.test(text) || WRITING_WORDS.test(text);
    if (classified.size >= 2048) classified.clear();
    classified.set(text, writes);
  }
  return writes;
}

export type CachedAnswer = {
  payload: string;
  contentType: string;
};

type Entry = CachedAnswer & { generation: number; storedAt: number };

export type ReadCache = {
  readonly ttlMs: number;
  /** The answer stored under `key` if nothing changed since, or undefined. */
  get: (key: string, now: number) => CachedAnswer | undefined;
  /** Taken before the handler reads; `set` stores only if it is still current. */
  generation: () => number;
  set: (key: string, answer: CachedAnswer, startedAt: number, now: number) => boolean;
  /** The listening connection is down (false) or back (true). */
  setListening: (listening: boolean) => void;
  /** Off: nothing served or stored (benchmarks measure the path without the cache beside it). */
  setEnabled: (enabled: boolean) => void;
  clear: () => void;
  size: () => number;
};

const MAX_ENTRIES = 2_000;
/** Larger answers are not kept (a large page is not the hot path). */
const MAX_PAYLOAD_CHARS = 512 * 1024;
const MAX_TOTAL_CHARS = 32 * 1024 * 1024;

/** `ttlMs` 0 gives a cache that never holds anything. */
export function createReadCache(options: { ttlMs: number; listening?: boolean }): ReadCache {
  const { ttlMs } = options;
  const entries = new Map<string, Entry>();
  let totalChars = 0;
  let listening = options.listening ?? true;
  let enabled = true;

  const drop = (key: string, entry: Entry) => {
    entries.delete(key);
    totalChars -= entry.payload.length;
  };

  return {
    ttlMs,
    get: (key, now) => {
      if (ttlMs <= 0 || !listening || !enabled) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.generation !== generation || now - entry.storedAt >= ttlMs) {
        drop(key, entry);
        return undefined;
      }
      return entry;
    },
    generation: () => generation,
    set: (key, answer, startedAt, now) => {
      if (ttlMs <= 0 || !listening || !enabled || startedAt !== generation) return false;
      if (answer.payload.length > MAX_PAYLOAD_CHARS) return false;
      const previous = entries.get(key);
      if (previous) drop(key, previous);
      // Oldest first out (a Map keeps insertion order).
      for (const [oldKey, oldEntry] of entries) {
        if (entries.size < MAX_ENTRIES && totalChars + answer.payload.length <= MAX_TOTAL_CHARS) {
          break;
        }
        drop(oldKey, oldEntry);
      }
      entries.set(key, { ...answer, generation, storedAt: now });
      totalChars += answer.payload.length;
      return true;
    },
    setListening: (value) => {
      listening = value;
      entries.clear();
      totalChars = 0;
      dataChanged();
    },
    setEnabled: (value) => {
      enabled = value;
      entries.clear();
      totalChars = 0;
    },
    clear: () => {
      entries.clear();
      totalChars = 0;
    },
    size: () => entries.size,
  };
}

/** The NOTIFY channel of the tables' statement triggers (migration 0018). */
export const READ_CACHE_CHANNEL = 'read_cache';
