import { describe, expect, it } from 'vitest';
import { LOCAL_IDENTIFIER_MESSAGES, localIdentifierProblem } from './scheduling-locals';
import { pageCount, pageOf, pageQueryParams, pageReply } from './pagination';
import { z } from 'zod';

describe('post identifier rule', () => {
  it.each([
    ['CE', 'CE.FORTALEZA-CENTRO', null],
    ['ce', 'FORTALEZA-CENTRO', null],
    ['DF', 'DF.POSTO01', null],
    ['DEMO', 'DEMO.POSTO_01', null],
    ['DF', 'DF.POSTO-01', LOCAL_IDENTIFIER_MESSAGES.dash],
    ['SP', 'SP POSTO', LOCAL_IDENTIFIER_MESSAGES.characters],
    ['CE', 'CE.Posto/1', LOCAL_IDENTIFIER_MESSAGES.characters],
    ['DF', ' ', LOCAL_IDENTIFIER_MESSAGES.required],
    ['DF', 'X', LOCAL_IDENTIFIER_MESSAGES.length],
    ['DF', 'X'.repeat(81), LOCAL_IDENTIFIER_MESSAGES.length],
  ])('%s %s', (unit, identifier, problem) => {
    expect(localIdentifierProblem(unit, identifier)).toBe(problem);
  });
});

describe('page contract', () => {
  it('reads page and size with defaults and limits, and shapes the reply', () => {
    const query = z.object(pageQueryParams({ defaultSize: 10, maxSize: 50 }));
    expect(query.parse({})).toEqual({ page: 1, pageSize: 10 });
    expect(query.parse({ page: '3', pageSize: '50' })).toEqual({ page: 3, pageSize: 50 });
    expect(query.safeParse({ pageSize: '51' }).success).toBe(false);
    expect(query.safeParse({ page: '0' }).success).toBe(false);
    const reply = pageReply({ page: 2, pageSize: 10 }, { items: ['a'], total: 11 });
    expect(pageOf(z.string()).parse(reply)).toEqual({
      items: ['a'],
      total: 11,
      page: 2,
      pageSize: 10,
    });
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
  });
});
