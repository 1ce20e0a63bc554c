/**
 * LISTEN on PostgreSQL: one dedicated connection per database for every
 * channel the server follows, reconnected with backoff when it drops (each
 * listener hears `onReconnect`, to read what it may have missed).
 */
import pg from 'pg';

/** Stops listening (the channel is left when its last listener goes). */
export type Unlisten = () => Promise<void>;

export type ListenOptions = {
  /**
   * Called after a lost listening connection is back (PostgreSQL only):
   * notifications sent meanwhile were not delivered, so the listener reads
   * what it missed from the tables.
   */
  onReconnect?: () => void;
};

/** Channel names go into LISTEN as identifiers: plain lower-case words only. */
export function checkChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`canal inválido: ${channel}`);
}

type Listener = { onPayload: (payload: string) => void; options: ListenOptions };

const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 15_000;

/**
 * LISTEN on PostgreSQL: one dedicated connection (a pooled one would be
 * handed to other queries and lose its LISTEN), shared by every channel of
 * the handle. When it drops it is opened again with a growing delay, the
 * channels are listened to again and each listener is told to catch up.
 */
export function createPgListener(url: string) {
  const listeners = new Map<string, Set<Listener>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let attempt = 0;
  let closed = false;

  const forEachListener = (visit: (listener: Listener) => void) => {
    for (const set of listeners.values()) for (const listener of set) visit(listener);
  };

  const lost = (which: pg.Client) => {
    if (client !== which) return;
    client = null;
    which.removeAllListeners('notification');
    void which.end().catch(() => undefined);
    scheduleReconnect();
  };

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      // Probed after 10 s idle: a dead peer is noticed (and listeners told) soon, not in hours.
      const next = new pg.Client({
        connectionString: url,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      });
      next.on('notification', (message) => {
        for (const listener of listeners.get(message.channel) ?? []) {
          listener.onPayload(message.payload ?? '');
        }
      });
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      try {
        await next.connect();
        for (const channel of listeners.keys()) await next.query(`LISTEN ${channel}`);
      } catch (error) {
        await next.end().catch(() => undefined);
        throw error;
      }
      if (closed) {
        await next.end().catch(() => undefined);
        throw new Error('banco de dados fechado');
      }
      client = next;
      attempt = 0;
      return next;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  function scheduleReconnect(): void {
    if (closed || retryTimer || listeners.size === 0) return;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempt);
    attempt += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().then(
        () => forEachListener((listener) => listener.options.onReconnect?.()),
        () => scheduleReconnect(),
      );
    }, delay);
    retryTimer.unref();
  }

  const listen = async (
    channel: string,
    onPayload: (payload: string) => void,
    options: ListenOptions = {},
  ): Promise<Unlisten> => {
    checkChannel(channel);
    if (closed) throw new Error('banco de dados fechado');
    const listener: Listener = { onPayload, options };
    const fresh = !listeners.has(channel);
    const set = listeners.get(channel) ?? new Set<Listener>();
    set.add(listener);
    listeners.set(channel, set);
    try {
      const connection = await connect();
      // A new connection listens to every channel already; an open one learns the new channel.
      if (fresh) await connection.query(`LISTEN ${channel}`);
    } catch (error) {
      set.delete(listener);
      if (set.size === 0) listeners.delete(channel);
      throw error;
    }
    return async () => {
      if (!set.delete(listener) || set.size > 0) return;
      listeners.delete(channel);
      if (listeners.size === 0) {
        const current = client;
        client = null;
        if (current) {
          current.removeAllListeners();
          current.on('error', () => undefined);
          await current.end().catch(() => undefined);
        }
      } else {
        await client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      }
    };
  };

  const close = async () => {
    closed = true;
    if (retryTimer) clearTimeout(retryTimer);
    listeners.clear();
    const current = client ?? (await connecting?.catch(() => null)) ?? null;
    client = null;
    if (current) {
      current.removeAllListeners();
      current.on('error', () => undefined);
      await current.end().catch(() => undefined);
    }
  };
  return { listen, close };
}
