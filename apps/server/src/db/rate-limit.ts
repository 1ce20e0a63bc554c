/**
 * Request limits shared by every instance: fixed-window counters in the
 * database (one atomic upsert per hit), so N servers behind a load balancer
 * count together and a restart does not reset them. Subjects (addresses,
 * accounts, CPFs) are stored only as keyed pseudonyms.
 *
 * Sign-in throttling has its own shape (growing waits, reset on success) and
 * lives in modules/auth/login-throttle.ts. The SQL is in rate-limit.repository.ts.
 */
import type { Executor } from './client';
import { AppError } from '../lib/app-error';
import type { Pseudonymizer } from '../lib/pseudonym';
import { countHits } from './rate-limit.repository';

export type RateLimitRule = {
  /** Part of the stored key; rules with different names never share a counter. */
  name: string;
  limit: number;
  windowMs: number;
};

/** The limits of the product, in one place so that the docs and the tests read the same numbers. */
export const RATE_LIMITS = {
  /**
   * Reset and register links: a person needs a few, an enumerator needs
   * thousands. Before the reply, per address and per value typed (the same
   * work whatever the value names); after it, in the worker that looks the
   * account up, per account, whether it was named by e-mail or by CPF.
   */
  linkPerIp: { name: 'link-ip', limit: 10, windowMs: 15 * 60_000 },
  linkPerValue: { name: 'link-value', limit: 3, windowMs: 15 * 60_000 },
  linkPerAccount: { name: 'link-account', limit: 3, windowMs: 15 * 60_000 },
  /** Setting a password with a link (each try is an argon2id hash). */
  passwordPerIp: { name: 'password-ip', limit: 10, windowMs: 15 * 60_000 },
  passwordPerCpf: { name: 'password-cpf', limit: 5, windowMs: 15 * 60_000 },
  /** Face verification: an examiner retries a few times; climbing a score takes hundreds. */
  verifyPerUser: { name: 'verify-user', limit: 30, windowMs: 15 * 60_000 },
  /** Per user and CPF: one user's attempts never lock another user out of a CPF. */
  verifyPerCpf: { name: 'verify-cpf', limit: 10, windowMs: 15 * 60_000 },
  /**
   * Per CPF, every user together: a ceiling above what any one user may try
   * (FACE_VERIFY_CPF_LIMIT sets it; the default is here).
   */
  verifyPerCpfAll: { name: 'verify-cpf-all', limit: 50, windowMs: 15 * 60_000 },
  /** Face challenges: one per capture attempt; a person needs a few, a score climber hundreds. */
  challengePerUser: { name: 'challenge-user', limit: 60, windowMs: 15 * 60_000 },
  /** Face enrolment (ADMIN): each call runs the engine on up to five pictures. */
  enrolPerUser: { name: 'enrol-user', limit: 30, windowMs: 15 * 60_000 },
  enrolPerCpf: { name: 'enrol-cpf', limit: 5, windowMs: 15 * 60_000 },
  /** The public certificate check: a person checks a few codes; guessing takes billions. */
  certificatePerIp: { name: 'certificate-ip', limit: 30, windowMs: 15 * 60_000 },
  /** Sign-ins sent to an identity provider: each one keeps a row for 10 minutes. */
  ssoStartPerIp: { name: 'sso-start-ip', limit: 30, windowMs: 15 * 60_000 },
  /** Batches of the web client's activity events: one every few seconds at most, per user. */
  activityPerUser: { name: 'activity-user', limit: 600, windowMs: 15 * 60_000 },
  /**
   * The web client's activity events themselves, per user and hour (a batch
   * counts its events): a busy person views a few hundred pages an hour
   * (ACTIVITY_CLIENT_EVENTS_PER_HOUR sets it; the default is here).
   */
  activityEventsPerUser: { name: 'activity-events-user', limit: 1000, windowMs: 60 * 60_000 },
} as const satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof RATE_LIMITS;
export type RateLimitOverrides = Partial<Record<RateLimitName, Pick<RateLimitRule, 'limit'>>>;

export type HitOptions = {
  now?: Date;
  /** The transaction to count in (work that runs in one); the limiter's database otherwise. */
  db?: Executor;
  /** How many hits this call counts (a batch of events); one by default. */
  weight?: number;
};

/** One of the hits `hitAll` counts together. */
export type NamedHit = { name: RateLimitName; subject: string; weight?: number };

export type RateLimiter = {
  /** Counts one hit of `subject` under the named rule; throws 429 RATE_LIMITED past the limit. */
  hit(name: RateLimitName, subject: string, options?: HitOptions): Promise<void>;
  /**
   * Counts every hit, under rules of different names, in one statement (each
   * counts even when another is past its limit); throws 429 RATE_LIMITED
   * when any is past its limit, with the longest wait.
   */
  hitAll(hits: readonly NamedHit[], options?: Omit<HitOptions, 'weight'>): Promise<void>;
  /** Counts one hit and tells whether it was within the limit (for work with no one to answer). */
  tryHit(
    name: RateLimitName,
    subject: string,
    options?: HitOptions,
  ): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
};

/** `overrides` change a limit (tests that make many calls on purpose); the window stays. */
export function createRateLimiter(
  db: Executor,
  pseudonym: Pseudonymizer,
  overrides: RateLimitOverrides = {},
): RateLimiter {
  /** Counts the hits; the wait before the next allowed one of each past its limit, in seconds. */
  async function count(
    hits: readonly NamedHit[],
    options: Omit<HitOptions, 'weight'>,
  ): Promise<number[]> {
    const now = options.now ?? new Date();
    const rules = hits.map((hit) => ({ ...RATE_LIMITS[hit.name], ...overrides[hit.name] }));
    const rows = await countHits(
      options.db ?? db,
      hits.map((hit, index) => ({
        key: `${rules[index]!.name}:${pseudonym(hit.subject)}`,
        windowMs: rules[index]!.windowMs,
        weight: hit.weight,
      })),
      now,
    );
    const waits: number[] = [];
    rows.forEach((row, index) => {
      const rule = rules[index]!;
      if (!row || row.hits <= rule.limit) return;
      const retryAfter = Math.ceil(
        (row.windowStart.getTime() + rule.windowMs - now.getTime()) / 1000,
      );
      waits.push(Math.max(1, retryAfter));
    });
    return waits;
  }
  const tryHit: RateLimiter['tryHit'] = async (name, subject, options = {}) => {
    const [wait] = await count([{ name, subject, weight: options.weight }], options);
    return wait === undefined ? { allowed: true } : { allowed: false, retryAfterSeconds: wait };
  };
  const hitAll: RateLimiter['hitAll'] = async (hits, options = {}) => {
    const waits = await count(hits, options);
    if (waits.length === 0) return;
    throw AppError.of('RATE_LIMITED', 429).withHeader('retry-after', String(Math.max(...waits)));
  };
  return {
    tryHit,
    hitAll,
    hit: (name, subject, options = {}) =>
      hitAll([{ name, subject, weight: options.weight }], options),
  };
}
