/**
 * The server killed with SIGKILL in the middle of a write load loses no
 * acknowledged write. The real server process runs on a fresh data folder
 * (PGlite) or a fresh PostgreSQL database (TEST_DATABASE_URL); a few clients
 * create service posts at once and note every 201; the process is killed
 * while requests are in flight, started again on the same data (the lock
 * file the killed process left is replaced) and every acknowledged post is
 * there, each once, readable, and the database takes new writes.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lockFile, lockHolder } from '../../src/lib/data-dir-lock';
import { engineName } from '../helper';
import { freshProcessData, signInAdmin } from './server-process';

const CLIENTS = 4;
/** Writes acknowledged before the kill: enough that it lands mid-load. */
const ACKNOWLEDGED_BEFORE_KILL = 40;

type Created = { id: string; identifier: string };

async function listAll(
  baseUrl: string,
  auth: { authorization: string },
): Promise<Map<string, Created>> {
  const found = new Map<string, Created>();
  for (let page = 1; ; page += 1) {
    const response = await fetch(`${baseUrl}/api/SchedulingLocal?page=${page}&pageSize=200`, {
      headers: auth,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { items: Created[]; total: number };
    for (const item of body.items) {
      expect(found.has(item.id)).toBe(false);
      found.set(item.identifier, item);
    }
    if (body.items.length === 0 || found.size >= body.total) return found;
  }
}

describe(`SIGKILL durante escritas (${engineName})`, () => {
  const data = freshProcessData('exame-sigkill-');

  it('keeps every write answered 2xx before the kill, and starts again cleanly', async () => {
    const { dataDir, databaseUrl } = data;
    const first = await data.start();
    const auth = await signInAdmin(first.baseUrl);
    if (!databaseUrl) expect(lockHolder(dataDir)?.pid).toBe(first.pid);

    const acknowledged: Created[] = [];
    let attempted = 0;
    let killed = false;
    let inFlightAtKill = 0;
    let inFlight = 0;
    // Each client writes until one of its writes goes unanswered after the kill: a
    // signal is not instant, and the writes in flight when it is sent may still
    // be answered (and then must be stored); the one that fails is the proof
    // that the process died mid-load.
    const client = async (index: number) => {
      let unanswered = false;
      for (let n = 0; !unanswered; n += 1) {
        const identifier = `K${index}_${n}`;
        attempted += 1;
        inFlight += 1;
        try {
          const response = await fetch(`${first.baseUrl}/api/SchedulingLocal`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ identifier, description: `Posto ${identifier}` }),
          });
          if (response.status === 201) {
            const body = (await response.json()) as Created;
            // Acknowledged only once the whole answer arrived.
            acknowledged.push({ id: body.id, identifier: body.identifier });
          } else if (!killed) {
            throw new Error(`resposta inesperada: ${response.status} ${await response.text()}`);
          } else {
            unanswered = true;
          }
        } catch (error) {
          if (!killed) throw error;
          unanswered = true;
        } finally {
          inFlight -= 1;
        }
        if (!killed && acknowledged.length >= ACKNOWLEDGED_BEFORE_KILL) {
          inFlightAtKill = inFlight;
          killed = true;
          first.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    const exit = await first.exited;
    expect(exit.signal).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
    // The kill landed with other writes still on their way, and every client met the dead process.
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(attempted).toBeGreaterThanOrEqual(acknowledged.length + CLIENTS);

    // The killed process's lock file is still there, naming a process that is gone.
    if (!databaseUrl) {
      expect(fs.existsSync(lockFile(dataDir))).toBe(true);
      expect(lockHolder(dataDir)).toBeNull();
    }

    const second = await data.start();
    expect(second.output()).not.toMatch(/corrupt|PANIC/i);
    if (!databaseUrl) expect(lockHolder(dataDir)?.pid).toBe(second.pid);
    const authAgain = await signInAdmin(second.baseUrl);
    const stored = await listAll(second.baseUrl, authAgain);
    const missing = acknowledged.filter((write) => stored.get(write.identifier)?.id !== write.id);
    expect(missing).toEqual([]);
    // Nothing beyond what was attempted was invented.
    expect(stored.size).toBeLessThanOrEqual(attempted);

    const after = await fetch(`${second.baseUrl}/api/SchedulingLocal`, {
      method: 'POST',
      headers: { ...authAgain, 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'DEPOIS', description: 'Posto depois do reinício' }),
    });
    expect(after.status).toBe(201);
  }, 360_000);
});
