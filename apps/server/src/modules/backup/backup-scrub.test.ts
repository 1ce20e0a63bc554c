/**
 * What a backup's copy of the database is cleared of (backup-scrub.repository.ts),
 * on both database tiers: after the scrub, the link waiting in the outbox is
 * gone (the message reads "link expirado") and its token sets no password,
 * a session and a trusted device opened before are refused, and a face
 * challenge and examiner 2's confirmation are no longer open; users, their password hashes and the record of
 * every session and message stay.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { lastMailTo, seedSignedIn, seedUser } from '../../../test/identity';
import { scrubCredentials } from './backup-scrub.repository';
import { selectRows } from '../../db/select-rows';

describe('credentials neutralised in a backup copy', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('leaves no usable link, session, trusted device or challenge', async () => {
    const db = t.database.db;
    const signed = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const user = await seedUser(t.app, { role: 'auditor', unit: 'DF' });
    const requested = await t.app.inject({ method: 'POST', url: `/api/User/reset/${user.cpf}` });
    expect(requested.statusCode).toBe(202);
    const mail = await lastMailTo(t.app, user.email);
    const token = mail?.link?.token ?? '';
    expect(token).not.toBe('');
    // A body written with the token in it (as before the link was kept apart) is masked too.
    await db.execute(
      sql`insert into mail_outbox (recipient, subject, text, html)
          values ('antigo@exame.gov.br', 'Antigo', ${`acesse https://x/reset-password/1#token=${'A'.repeat(43)}`}, '<p>?token=abc_DEF-123</p>')`,
    );
    await db.execute(
      sql`insert into trusted_devices (token_hash, user_id, expires_at)
          values ('hash-do-dispositivo', ${signed.user.id}, now() + interval '30 days')`,
    );
    await db.execute(
      sql`insert into face_challenges (federative_unit, requested_by, cpf, purpose, steps, expires_at)
          values ('DF', ${signed.user.id}, ${user.cpf}, 'verification', '["left"]'::jsonb, now() + interval '1 minute')`,
    );
    // Examiner 2's confirmation, where this version has them (single-use, 30 min).
    const [proctoring] = await selectRows<{ exists: boolean }>(
      db,
      sql`select to_regclass('public.proctoring_tokens') is not null as exists`,
    );
    if (proctoring?.exists) {
      await db.execute(
        sql`insert into proctoring_tokens (token_hash, federative_unit, issued_to, issued_session, person_id, scheduling_local, expires_at)
            values ('hash-da-confirmacao', 'DF', ${signed.user.id}, 'sessao-do-examinador', ${user.id}, 'DF.0001', now() + interval '30 minutes')`,
      );
    }
    // A sign-in through an identity provider under way, and one handed off, where this version has them.
    const [sso] = await selectRows<{ exists: boolean }>(
      db,
      sql`select to_regclass('public.sso_logins') is not null as exists`,
    );
    if (sso?.exists) {
      await db.execute(
        sql`with provider as (
              insert into identity_providers (federative_unit, name, issuer, client_id)
              values ('DF', 'Provedor', 'https://idp.exemplo.gov.br', 'exame') returning id)
            insert into sso_logins (provider_id, state_hash, code_verifier, nonce, browser_hash, expires_at, handoff_hash, user_id, handoff_expires_at)
            select id, 'hash-do-estado', 'verificador-pkce', 'nonce', 'hash-do-navegador', now() + interval '10 minutes', null, null, null from provider
            union all
            select id, 'hash-do-estado-2', 'verificador-pkce', 'nonce', 'hash-do-navegador', now(), 'hash-da-passagem', ${signed.user.id}::uuid, now() + interval '1 minute' from provider`,
      );
    }
    // A sign-in stopped after its password (second factor), where this version has them.
    const [mfa] = await selectRows<{ exists: boolean }>(
      db,
      sql`select to_regclass('public.mfa_tickets') is not null as exists`,
    );
    if (mfa?.exists) {
      await db.execute(
        sql`insert into mfa_tickets (key_hash, user_id, purpose, expires_at)
            values ('hash-do-passo', ${signed.user.id}, 'sign-in', now() + interval '10 minutes')`,
      );
    }
    const me = await t.app.inject({ method: 'GET', url: '/api/Auth/me', headers: signed.auth });
    expect(me.statusCode).toBe(200);

    const counts = await scrubCredentials(db, new Date());
    expect(counts).toMatchObject({
      mailLinks: 2,
      passwordLinks: 1,
      // The one of the sign-in, and the one written here.
      trustedDevices: 2,
      faceChallenges: 1,
      proctoringTokens: proctoring?.exists ? 1 : 0,
      ssoLogins: sso?.exists ? 2 : 0,
      mfaTickets: mfa?.exists ? 1 : 0,
    });
    expect(counts.sessions).toBeGreaterThanOrEqual(1);

    const outbox = await selectRows<{ link: string | null; text: string; html: string }>(
      db,
      sql`select link, text, html from mail_outbox order by created_at`,
    );
    expect(outbox.every((row) => row.link === null)).toBe(true);
    expect(JSON.stringify(outbox)).not.toContain(token);
    expect(JSON.stringify(outbox)).not.toMatch(/token=(?!\[removido\])/);
    const again = await lastMailTo(t.app, user.email);
    expect(again?.text).toContain('[link expirado: peça um novo]');

    // The token of the link sets no password; the user's password is untouched.
    const used = await t.app.inject({
      method: 'PATCH',
      url: '/api/User/password',
      payload: { cpf: user.cpf, token, password: 'Outra#Senha-2026-abc' },
    });
    expect(used.statusCode, used.body).toBeGreaterThanOrEqual(400);
    const [stored] = await selectRows<{ hash: string | null }>(
      db,
      sql`select password_hash as hash from users where id = ${user.id}`,
    );
    expect(stored?.hash).toBe(user.passwordHash);

    // The session is over (the copy is read by no running app: its row says so).
    const [session] = await selectRows<{ reason: string | null; revoked: boolean }>(
      db,
      sql`select revoked_reason as reason, revoked_at is not null as revoked
            from sessions where user_id = ${signed.user.id}`,
    );
    expect(session).toEqual({ reason: 'backup', revoked: true });
    const [left] = await selectRows<{ devices: number; open: number }>(
      db,
      sql`select (select count(*)::int from trusted_devices) as devices,
                 (select count(*)::int from face_challenges where expires_at > now() and used_at is null) as open`,
    );
    expect(left).toEqual({ devices: 0, open: 0 });
    if (sso?.exists) {
      expect(await selectRows(db, sql`select 1 from sso_logins`)).toEqual([]);
    }
    if (mfa?.exists) {
      expect(await selectRows(db, sql`select 1 from mfa_tickets`)).toEqual([]);
    }
    if (proctoring?.exists) {
      const [confirmations] = await selectRows<{ open: number }>(
        db,
        sql`select count(*)::int as open from proctoring_tokens where expires_at > now() and used_at is null`,
      );
      expect(confirmations?.open).toBe(0);
    }
  });
});
