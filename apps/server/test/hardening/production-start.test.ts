/**
 * A production start (NODE_ENV=production) of the real server process, on the
 * embedded database (or on PostgreSQL with TEST_DATABASE_URL), with nothing
 * said about the demonstration or the API document: no demo accounts are
 * created and no shared password is printed, no DEMO sample data is seeded,
 * and /docs answers 404 like any unknown path; the first ADMIN (of
 * ADMIN_FEDERATIVE_UNIT) has the right password and is asked to enrol a
 * second factor (MFA_REQUIRED_ROLES defaults to ADMIN in production). Stopped gracefully, the database is read
 * to count who was created.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { selectRows } from '../../src/db/select-rows';
import { FAULT_ADMIN, freshProcessData } from '../faults/server-process';
import { engineName } from '../helper';

/** Starting the server (migrations, the face engine's warm-up) takes a while on a busy machine. */
const SLOW = 240_000;

describe(`production start without SEED_DEMO nor API_DOCS (${engineName})`, () => {
  const data = freshProcessData('exame-production-start-');

  it(
    'creates no demo accounts, prints no shared password and does not serve /docs',
    async () => {
      const started = await data.start({
        env: {
          NODE_ENV: 'production',
          TRUST_PROXY: 'none',
          FILE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
          MAIL_OUTBOX_ONLY: 'true',
        },
        unset: ['SEED_DEMO'],
      });
      // The banner follows the listen by a moment.
      for (let wait = 0; !started.output().includes('E-mails:') && wait < 100; wait += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const output = started.output();
      expect(output).toContain('documento da API desligado');
      expect(output).not.toContain('@demo.exame.local');
      expect(output).toMatch(/ADMIN\s+DF\s+admin@falhas\.exame\.local/);

      for (const url of ['/docs', '/docs/', '/docs/json', '/docs/static/index.html']) {
        const response = await fetch(`${started.baseUrl}${url}`);
        expect(response.status, url).toBe(404);
        expect(await response.text(), url).not.toMatch(/swagger|openapi/i);
      }
      // The first ADMIN is there: the right password, and production asks for a second factor first.
      expect(output).toContain('Segundo fator: obrigatório para ADMIN');
      const signIn = await fetch(`${started.baseUrl}/api/Auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(FAULT_ADMIN),
      });
      expect(signIn.status).toBe(401);
      expect(await signIn.json()).toMatchObject({
        code: 'multi-factor-enrolment-required',
        mfa: { enrolment: true },
      });

      started.kill('SIGTERM');
      expect((await started.exited).code).toBe(0);
      data.server = undefined;

      const opened = await openDatabase(
        data.databaseUrl
          ? { kind: 'postgres', url: data.databaseUrl, poolSize: 1 }
          : { kind: 'pglite', dataDir: path.join(data.dataDir, 'pgdata') },
      );
      try {
        const users = await selectRows<{ email: string; unit: string }>(
          opened.db,
          sql`select email, federative_unit as unit from users order by email`,
        );
        expect(users).toEqual([{ email: 'admin@falhas.exame.local', unit: 'DF' }]);
        const [demoExams] = await selectRows<{ n: number }>(
          opened.db,
          sql`select count(*)::int as n from exams where federative_unit = 'DEMO'`,
        );
        expect(demoExams?.n).toBe(0);
      } finally {
        await opened.close();
      }
    },
    SLOW,
  );
});
