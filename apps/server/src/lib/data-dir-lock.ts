/**
 * Who is using the embedded database's folder. Only one process may open
 * PGlite's files at a time (a second one would corrupt them): the server
 * takes DATA_DIR/server.lock when it starts and gives it back when it stops;
 * `npm run backup` (with the server stopped) and `npm run restore` take it
 * while they read or swap the data. The file names
 * the holder's process id, role and port; a holder that is gone (killed, the
 * machine restarted) leaves a stale file that the next one simply replaces.
 */
import fs from 'node:fs';
import path from 'node:path';

export type LockRole = 'server' | 'backup' | 'restore';
export type LockHolder = { pid: number; role: LockRole; port?: number; since: string };

export function lockFile(dataDir: string): string {
  return path.join(dataDir, 'server.lock');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, it is someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the folder, or null (no file, or one left by a process that is gone). */
export function lockHolder(dataDir: string): LockHolder | null {
  let holder: LockHolder;
  try {
    holder = JSON.parse(fs.readFileSync(lockFile(dataDir), 'utf8')) as LockHolder;
  } catch {
    return null;
  }
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return null;
  return alive(holder.pid) ? holder : null;
}

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  constructor(readonly holder: LockHolder) {
    super(
      holder.role === 'server'
        ? `Um servidor (processo ${holder.pid}${holder.port ? `, porta ${holder.port}` : ''}) está usando esta pasta de dados.`
        : `Uma ${holder.role === 'backup' ? 'cópia de segurança' : 'restauração'} (processo ${holder.pid}) está em andamento nesta pasta de dados.`,
    );
  }
}

/**
 * Takes the folder for this process; throws DataDirBusyError when another
 * live process holds it. Returns the release (safe to call twice).
 */
export function acquireDataDir(
  dataDir: string,
  role: LockRole,
  port?: number,
): { release: () => void; update: (port: number) => void } {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const write = (value: LockHolder, flag: 'wx' | 'w') =>
    fs.writeFileSync(file, JSON.stringify(value), { flag, mode: 0o600 });
  const mine: LockHolder = { pid: process.pid, role, port, since: new Date().toISOString() };
  let taken = false;
  for (let attempt = 0; attempt < 3 && !taken; attempt += 1) {
    try {
      write(mine, 'wx');
      taken = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dataDir);
      if (holder) throw new DataDirBusyError(holder);
      // Left by a process that is gone: replace it.
      fs.rmSync(file, { force: true });
    }
  }
  if (!taken) throw new Error(`não foi possível reservar ${file}`);
  let released = false;
  return {
    update: (newPort) => {
      mine.port = newPort;
      if (!released) write(mine, 'w');
    },
    release: () => {
      if (released) return;
      released = true;
      const holder = lockHolder(dataDir);
      if (holder?.pid === process.pid) fs.rmSync(file, { force: true });
    },
  };
}
