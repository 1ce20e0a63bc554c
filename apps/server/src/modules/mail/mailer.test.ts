import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { extractLink, lastMailTo, seedSignedIn } from '../../../test/identity';
import { startSmtpServer } from '../../../test/smtp';
import { readFileSync } from 'node:fs';
import { operatorTokenFile } from '../../lib/operator-token';

describe('mail over SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({
      config: { smtpUrl: smtp.url, publicAppUrl: 'https://df.exame.gov.br' },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('a new user receives the register-password link by SMTP; the outbox records the delivery', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/User/admin',
      headers: admin.auth,
      payload: {
        name: 'Carla Fiscal',
        email: 'carla@detran.df.gov.br',
        cpf: '529.982.247-25',
        role: 'ROOM_INSPECTOR',
      },
    });
    expect(response.statusCode).toBe(201);
    const mail = await smtp.waitFor('carla@detran.df.gov.br');
    expect(mail.raw).toMatch(/Subject: Cadastre sua senha de acesso/);
    const link = extractLink(mail.text);
    expect(
      link?.url.startsWith('https://df.exame.gov.br/register-password/52998224725#token='),
    ).toBe(true);

    const set = await t.app.inject({
      method: 'PATCH',
      url: '/api/User/password',
      payload: { cpf: '52998224725', token: link?.token, password: 'Fiscal#Sala2026' },
    });
    expect(set.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email: 'carla@detran.df.gov.br', password: 'Fiscal#Sala2026' },
    });
    expect(login.statusCode).toBe(200);

    const outbox = await t.database.db.execute(
      sql`select sent_at is not null as sent, attempts, link, text, html from mail_outbox where recipient = 'carla@detran.df.gov.br'`,
    );
    const rows = (outbox as unknown as { rows: Array<Record<string, unknown>> }).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sent: true, attempts: 1, link: null });
    // Delivered: the outbox keeps the record of the message, not a usable token.
    expect(JSON.stringify(rows)).not.toContain(link?.token);
  });
});

describe('mail without SMTP (the embedded default)', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp({
      logger: {
        level: 'trace',
        stream: { write: (line: string) => void lines.push(line) },
      },
    });
  });
  afterAll(() => t.close());

  it('waits in the outbox; the log never carries a body, a link or a token', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/User/admin',
      headers: admin.auth,
      payload: {
        name: 'Rui Auditor',
        email: 'rui@detran.df.gov.br',
        cpf: '111.444.777-35',
        role: 'auditor',
      },
    });
    expect(created.statusCode).toBe(201);
    await t.app.inject({ method: 'POST', url: '/api/User/reset/rui@detran.df.gov.br' });
    const mail = await lastMailTo(t.app, 'rui@detran.df.gov.br');
    expect(mail?.link?.token).toBeTruthy();
    // Let the deliveries that follow each answer run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const log = lines.join('');
    expect(log).toMatch(/npm run mail:outbox/);
    expect(log).not.toContain(mail?.link?.token ?? '-');
    expect(log).not.toContain('#token=');
    expect(log).not.toContain('11144477735');
    expect(log).not.toContain('Olá, Rui');
    // The stored bodies hold a placeholder; the link is kept apart until it expires.
    const [row] = (
      (await t.database.db.execute(
        sql`select text, html, link, link_expires_at, sent_at from mail_outbox where id = ${mail?.id}`,
      )) as unknown as { rows: Array<Record<string, string | null>> }
    ).rows;
    expect(row?.text).toContain('{{link}}');
    expect(`${row?.text}${row?.html}`).not.toContain(mail?.link?.token ?? '-');
    expect(row?.link).toContain(mail?.link?.token ?? '-');
    expect(row?.sent_at).toBeNull();
    expect(Date.parse(row?.link_expires_at ?? '') - Date.now()).toBeGreaterThan(29 * 60_000);
  });

  it('the operator reads pending messages with their links from the server machine, and nobody else', async () => {
    const token = readFileSync(operatorTokenFile(t.app.config.dataDir), 'utf8').trim();
    const pending = await t.app.inject({
      method: 'GET',
      url: '/internal/mail-outbox',
      headers: { 'x-operator-token': token },
    });
    expect(pending.statusCode).toBe(200);
    const messages = pending.json() as Array<{ to: string; text: string }>;
    const latest = messages.filter((message) => message.to === 'rui@detran.df.gov.br').at(-1);
    expect(latest?.text).toMatch(/#token=[A-Za-z0-9_-]{43}/);
    const remote = await t.app.inject({
      method: 'GET',
      url: '/internal/mail-outbox',
      headers: { 'x-operator-token': token },
      remoteAddress: '203.0.113.9',
    });
    expect(remote.statusCode).toBe(401);
    const noToken = await t.app.inject({ method: 'GET', url: '/internal/mail-outbox' });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json().code).toBe('OPERATOR_ONLY');
  });
});
