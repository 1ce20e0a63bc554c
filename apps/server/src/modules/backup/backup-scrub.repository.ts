/**
 * What a backup must not carry (backup.service.ts): anything its holder, or a
 * restore of it later, could use to act as someone. Run on the in-memory
 * copy that becomes the backup, never on the live database.
 *
 * - The outbox's links (a one-time token in the clear, usable for 30 min
 *   without SMTP) are dropped, and any `token=` left in a body is masked:
 *   the message then reads "[link expirado: peça um novo]".
 * - Password links not yet used are voided, sessions still open are revoked
 *   (`backup`), trusted devices and queued link requests are removed, and
 *   face challenges not yet answered and examiner 2's confirmations not yet
 *   used (`proctoring_tokens`) are expired; sign-ins through an identity
 *   provider under way (`sso_logins`) are removed. Their tokens are stored
 *   hashed, so the copy gives none away; neutralising them means a restore
 *   never brings back a session signed out, or a link voided, after the
 *   backup was made. After a restore everyone signs in again.
 *
 * Kept, because a restore needs them and they let no one act: password
 * hashes (argon2id), the hashes of integration API keys, and the record of
 * every session, link and message (who, when), which only loses its use.
 */
import { and, gt, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import {
  faceChallenges,
  mailOutbox,
  passwordLinkRequests,
  passwordLinks,
  sessions,
  trustedDevices,
} from '../../db/schema/index';

/** The tables whose rows a backup changes (or leaves out) on purpose. */
export const SCRUBBED_TABLES = [
  'public.face_challenges',
  'public.mfa_tickets',
  'public.mail_outbox',
  'public.password_link_requests',
  'public.password_links',
  'public.proctoring_tokens',
  'public.sessions',
  'public.sso_logins',
  'public.trusted_devices',
] as const;

export type ScrubCounts = {
  mailLinks: number;
  passwordLinks: number;
  sessions: number;
  trustedDevices: number;
  linkRequests: number;
  faceChallenges: number;
  proctoringTokens: number;
  ssoLogins: number;
  mfaTickets: number;
};

/** A token in a link (`#token=...`, `?token=...`), whatever the page. */
const TOKEN_IN_TEXT = '([#?&]token=)[A-Za-z0-9_-]+';
const maskTokens = (column: typeof mailOutbox.text | typeof mailOutbox.html) =>
  sql`regexp_replace(${column}, ${TOKEN_IN_TEXT}, '\\1[removido]', 'g')`;

/** Neutralises every usable credential of the copy `db`; what it changed, by kind. */
export async function scrubCredentials(db: Executor, now: Date): Promise<ScrubCounts> {
  const mail = await db
    .update(mailOutbox)
    .set({ link: null, text: maskTokens(mailOutbox.text), html: maskTokens(mailOutbox.html) })
    .where(
      or(
        isNotNull(mailOutbox.link),
        sql`${mailOutbox.text} ~ ${TOKEN_IN_TEXT}`,
        sql`${mailOutbox.html} ~ ${TOKEN_IN_TEXT}`,
      ),
    )
    .returning({ id: mailOutbox.id });
  const links = await db
    .update(passwordLinks)
    .set({ voidedAt: now })
    .where(and(isNull(passwordLinks.usedAt), isNull(passwordLinks.voidedAt)))
    .returning({ id: passwordLinks.id });
  const open = await db
    .update(sessions)
    .set({ revokedAt: now, revokedReason: 'backup' })
    .where(isNull(sessions.revokedAt))
    .returning({ userId: sessions.userId });
  const devices = await db.delete(trustedDevices).returning({ userId: trustedDevices.userId });
  const requests = await db.delete(passwordLinkRequests).returning({ id: passwordLinkRequests.id });
  const challenges = await db
    .update(faceChallenges)
    .set({ expiresAt: now })
    .where(and(isNull(faceChallenges.usedAt), gt(faceChallenges.expiresAt, now)))
    .returning({ id: faceChallenges.id });
  const proctoring = await expireProctoringTokens(db, now);
  const ssoLogins = await deleteSsoLogins(db);
  const mfaTickets = await deleteIfPresent(db, 'mfa_tickets');
  return {
    mailLinks: mail.length,
    passwordLinks: links.length,
    sessions: open.length,
    trustedDevices: devices.length,
    linkRequests: requests.length,
    faceChallenges: challenges.length,
    proctoringTokens: proctoring,
    ssoLogins,
    mfaTickets,
  };
}

/**
 * Examiner 2's confirmations not used yet (single-use, 30 min) expire; the
 * table is looked up first, so the scrub runs on a copy of any version.
 */
async function expireProctoringTokens(db: Executor, now: Date): Promise<number> {
  const [table] = await selectRows<{ exists: boolean }>(
    db,
    sql`select to_regclass('public.proctoring_tokens') is not null as exists`,
  );
  if (!table?.exists) return 0;
  const expired = await selectRows<{ id: string }>(
    db,
    sql`update proctoring_tokens set expires_at = ${now}
         where used_at is null and expires_at > ${now}
     returning id`,
  );
  return expired.length;
}

/**
 * Sign-ins through an identity provider under way (PKCE verifiers) and their
 * one-time hand-offs go: a copy must not finish anyone's sign-in.
 */
function deleteSsoLogins(db: Executor): Promise<number> {
  return deleteIfPresent(db, 'sso_logins');
}

/**
 * Deletes every row of a table of pending steps, when the copy has it (the
 * scrub runs on a copy of any version). Second-factor steps go too: a copy
 * must not finish a sign-in after its password, nor a set-up under way.
 */
async function deleteIfPresent(db: Executor, table: 'sso_logins' | 'mfa_tickets'): Promise<number> {
  const [found] = await selectRows<{ exists: boolean }>(
    db,
    sql`select to_regclass(${`public.${table}`}) is not null as exists`,
  );
  if (!found?.exists) return 0;
  return (
    await selectRows<{ id: string }>(db, sql`delete from ${sql.identifier(table)} returning id`)
  ).length;
}
