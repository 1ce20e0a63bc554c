/**
 * The keys the web app persists in local storage (spec 3), and typed access to
 * them. Values are JSON except where the original stored plain strings.
 */
export const STORAGE_KEYS = {
  user: 'EP_ADMIN_USER',
  userProctoring: 'EP_ADMIN_USER_PROCTORING',
  sessionFireBase: 'sessionFireBase',
  schedulingLocal: 'EP_SCHEDULING_LOCAL',
  schedulingLocalDescription: 'schedulingLocalDescription',
  theme: 'theme',
  deviceId: 'deviceId',
  auditorCpf: 'auditorCpf',
  schedulingId: 'schedulingId',
  cpfViewer: 'cpfViewer',
  timer: 'timer',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    // Storage can be disabled by the browser's privacy settings.
    return undefined;
  }
}

export function readString(key: StorageKey): string | null {
  return storage()?.getItem(key) ?? null;
}

export function writeString(key: StorageKey, value: string): void {
  storage()?.setItem(key, value);
}

export function readJson<T>(key: StorageKey, guard: (value: unknown) => value is T): T | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return guard(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeJson(key: StorageKey, value: unknown): void {
  writeString(key, JSON.stringify(value));
}

export function removeKeys(...keys: StorageKey[]): void {
  const target = storage();
  for (const key of keys) target?.removeItem(key);
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The device identifier: a UUID v4 made once and kept (spec 3). */
export function getDeviceId(): string {
  const existing = readString(STORAGE_KEYS.deviceId);
  if (existing && UUID_V4.test(existing)) return existing;
  const created = crypto.randomUUID();
  writeString(STORAGE_KEYS.deviceId, created);
  return created;
}
