import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { extractLink, seedSignedIn } from '../../../test/identity';
import { startSmtpServer } from '../../../test/smtp';

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
      sql`select sent_at is not null as sent, attempts from mail_outbox where recipient = 'carla@detran.df.gov.br'`,
    );
    expect((outbox as unknown as { rows: unknown[] }).rows).toEqual([{ sent: true, attempts: 1 }]);
  });
});
