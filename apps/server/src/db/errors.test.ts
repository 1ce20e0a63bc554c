import { describe, expect, it } from 'vitest';
import { databaseUnavailable, uniqueViolation } from './errors';

describe('databaseUnavailable', () => {
  it('names a database server that is down, restarting or cut off', () => {
    expect(databaseUnavailable({ code: 'ECONNREFUSED' })).toBe(true);
    expect(databaseUnavailable({ code: '57P01', message: 'terminating connection' })).toBe(true);
    expect(databaseUnavailable({ code: '57P03' })).toBe(true);
    expect(databaseUnavailable({ code: '08006' })).toBe(true);
    expect(databaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(databaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    // drizzle wraps the driver's error; a host with two addresses answers an AggregateError.
    expect(databaseUnavailable(new Error('Failed query', { cause: { code: 'ECONNRESET' } }))).toBe(
      true,
    );
    const both = Object.assign(new AggregateError([{ code: 'ECONNREFUSED' }], 'x'), {});
    expect(databaseUnavailable(both)).toBe(true);
  });

  it('leaves statement errors alone', () => {
    const unique = new Error('Failed query', { cause: { code: '23505', constraint: 'x' } });
    expect(databaseUnavailable(unique)).toBe(false);
    expect(uniqueViolation(unique)).toBe('x');
    expect(databaseUnavailable({ code: '42P01' })).toBe(false);
    expect(databaseUnavailable(new Error('boom'))).toBe(false);
    expect(databaseUnavailable(null)).toBe(false);
  });
});
