import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BuildTestAppOptions } from '../../test/helper';
import { errorSerializer, maskPersonalData, sanitizeUrl } from './log-safety';

/** The app on a fresh database, with the server's own logger at `info`, writing into `lines`. */
async function appWithLog(beforeReady?: BuildTestAppOptions['beforeReady']) {
  const { loggerOptions } = await import('../app');
  const { buildTestApp, testConfig } = await import('../../test/helper');
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = { ...(loggerOptions(testConfig({ logLevel: 'info' })) as object), stream };
  const t = await buildTestApp({ logger: logger as never, beforeReady });
  return { ...t, lines };
}

describe('request addresses in the logs', () => {
  it('masks CPFs, e-mails and drops signatures and tokens', () => {
    expect(sanitizeUrl('/api/User/cpf/52998224725')).toBe('/api/User/cpf/***.982.247-**');
    expect(sanitizeUrl('/api/BiopassID/529.982.247-25')).toBe('/api/BiopassID/***.982.247-**');
    expect(sanitizeUrl('/api/User/reset/maria.souza@detran.df.gov.br')).toBe(
      '/api/User/reset/m***@detran.df.gov.br',
    );
    expect(sanitizeUrl('/api/User/reset/maria%40detran.df.gov.br')).toBe(
      '/api/User/reset/m***%40detran.df.gov.br',
    );
    expect(
      sanitizeUrl(
        '/api/ExamPhoto/0b4a8e9e-7c1f-4a5e-9d7a-2f3b4c5d6e7f?viewer=x&expires=1795280000000&signature=abcDEF123',
      ),
    ).toBe(
      '/api/ExamPhoto/0b4a8e9e-7c1f-4a5e-9d7a-2f3b4c5d6e7f?viewer=x&expires=1795280000000&signature=[oculto]',
    );
  });

  it('leaves other numbers alone', () => {
    expect(sanitizeUrl('/api/Exam?page=2&pageSize=20&expires=1795280000000')).toBe(
      '/api/Exam?page=2&pageSize=20&expires=1795280000000',
    );
  });
});

describe('the server log', () => {
  it('never carries a CPF from a request address', async () => {
    const { app, close, lines } = await appWithLog();
    await app.inject({ method: 'GET', url: '/api/User/cpf/52998224725' });
    await close();
    const text = lines.join('');
    expect(text).toContain('/api/User/cpf/***.982.247-**');
    expect(text).not.toContain('52998224725');
  });
});

describe('a database failure on a route', () => {
  it('answers a plain 500 and is logged without the values of its query', async () => {
    const { sql } = await import('drizzle-orm');
    const t = await appWithLog((app) => {
      // A real query that fails in the database, with a CPF and an e-mail as its parameters.
      app.get('/api/test/db-failure', { config: { access: 'public' } }, async () => {
        await app.database.db.execute(
          sql`select ${'maria.souza@detran.df.gov.br'}::text as email, ${'52998224725'}::int as cpf`,
        );
        return { ok: true };
      });
    });
    const { lines } = t;
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/test/db-failure' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({
        Error: 'Ocorreu um erro inesperado. Tente novamente em breve.',
        code: 'INTERNAL_ERROR',
      });
    } finally {
      await t.close();
    }
    const failure = lines.find((line) => line.includes('request failed'));
    expect(failure).toBeDefined();
    // The database's own words are kept (what failed, and where), its values are not.
    expect(failure).toContain('Failed query');
    expect(failure).toContain('params: [oculto]');
    expect(failure).toContain('out of range');
    expect(failure).toContain('***.982.247-**');
    const text = lines.join('');
    expect(text).not.toContain('52998224725');
    expect(text).not.toContain('maria.souza');
  });
});

describe('errors in the logs', () => {
  it('masks CPFs written in any spelling', () => {
    for (const spelling of [
      '52998224725',
      '529.982.247-25',
      '529982247-25',
      '529.982.24725',
      '529982.247-25',
      '529%2E982%2E247%2D25',
      '529%2e982%2e247%2d25',
    ]) {
      const masked = maskPersonalData(`CPF ${spelling} recusado`);
      expect(masked, spelling).toBe('CPF ***.982.247-** recusado');
    }
    expect(sanitizeUrl('/api/User/cpf/529982247-25')).toBe('/api/User/cpf/***.982.247-**');
    expect(sanitizeUrl('/api/User/cpf/529%2E982%2E247%2D25')).toBe('/api/User/cpf/***.982.247-**');
  });

  it('drops query parameters, hides constraint values and masks the whole cause chain', async () => {
    const { sql } = await import('drizzle-orm');
    const { createTestDatabase } = await import('../../test/helper');
    const database = await createTestDatabase();
    const table = sql.identifier(`log_probe_${Date.now()}`);
    let caught: unknown;
    try {
      await database.db.execute(sql`create table ${table} (cpf text primary key, email text)`);
      await database.db.execute(
        sql`insert into ${table} values (${'52998224725'}, ${'ana@x.gov.br'})`,
      );
      await database.db.execute(
        sql`insert into ${table} values (${'52998224725'}, ${'maria.souza@detran.df.gov.br'})`,
      );
    } catch (error) {
      caught = error;
    } finally {
      await database.db.execute(sql`drop table if exists ${table}`).catch(() => undefined);
      await database.drop();
    }
    expect(caught).toBeInstanceOf(Error);
    // The raw error carries the data: the serializer is what keeps it out.
    expect(JSON.stringify({ ...(caught as object), message: (caught as Error).message })).toContain(
      '52998224725',
    );
    const logged = JSON.stringify(errorSerializer(caught));
    expect(logged).not.toContain('52998224725');
    expect(logged).not.toContain('maria.souza');
    expect(logged).not.toContain('ana@x');
    expect(logged).toContain('params: [oculto]');
    expect(logged).toContain('insert into');
    const cause = (errorSerializer(caught) as { cause?: { code?: string; detail?: string } }).cause;
    expect(cause?.code).toBe('23505');
    expect(cause?.detail).toContain('(cpf)=([oculto])');
  });

  it('walks causes and odd values without failing', () => {
    const inner = Object.assign(new Error('falhou para 529.982.24725'), {
      parameters: ['52998224725'],
      row: { email: 'joao.silva@sp.gov.br', photo: Buffer.alloc(10) },
    });
    const outer = new Error('camada de cima', { cause: inner });
    const loop: Record<string, unknown> = { name: 'laço' };
    loop.self = loop;
    Object.assign(outer, { loop });
    const logged = JSON.stringify(errorSerializer(outer));
    expect(logged).toContain('***.982.247-**');
    expect(logged).toContain('j***@sp.gov.br');
    expect(logged).toContain('[10 bytes]');
    expect(logged).not.toContain('52998224725');
    expect(logged).not.toContain('joao.silva');
    expect(errorSerializer('texto 52998224725').message).toBe('texto ***.982.247-**');
  });

  it('goes through the server logger', async () => {
    const { app, close, lines } = await appWithLog();
    const error = Object.assign(
      new Error('Failed query: select 1\nparams: 52998224725,ana@x.gov.br'),
      {
        params: ['52998224725', 'ana@x.gov.br'],
      },
    );
    app.log.error({ err: error }, 'request failed');
    await close();
    const text = lines.join('');
    expect(text).toContain('request failed');
    expect(text).toContain('params: [oculto]');
    expect(text).not.toContain('52998224725');
    expect(text).not.toContain('ana@x');
  });
});
