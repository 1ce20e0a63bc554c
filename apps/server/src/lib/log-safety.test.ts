import { describe, expect, it } from 'vitest';
import { sanitizeUrl } from './log-safety';

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
    const { Writable } = await import('node:stream');
    const { buildApp, loggerOptions } = await import('../app');
    const { createTestDatabase, testConfig } = await import('../../test/helper');
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const database = await createTestDatabase();
    const config = testConfig({ logLevel: 'info' });
    const logger = { ...(loggerOptions(config) as object), stream };
    const app = await buildApp({ config, database, logger: logger as never });
    await app.ready();
    await app.inject({ method: 'GET', url: '/api/User/cpf/52998224725' });
    await app.close();
    await database.drop();
    const text = lines.join('');
    expect(text).toContain('/api/User/cpf/***.982.247-**');
    expect(text).not.toContain('52998224725');
  });
});
